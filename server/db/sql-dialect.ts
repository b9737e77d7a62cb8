import type { Expression, RawBuilder, SqlBool } from 'kysely';
import type { ColumnType } from '../../contract/model/entity-model.ts';

/**
 * Everything that differs between SQL engines, in one object per engine. The entity service
 * builds its queries with Kysely and asks the dialect only for these pieces, so adding
 * PostgreSQL means writing one more implementation of this interface (plus its Database).
 */
export interface SqlDialect {
  readonly name: string;
  /** DDL type for an abstract column type of the model. */
  columnType(type: ColumnType): string;
  /** A JS value (as the API sees it) to the value bound into SQL for a column of this type. */
  encode(type: ColumnType, value: unknown): unknown;
  /** A value read from SQL back to its API form (booleans, parsed JSON, ISO timestamps). */
  decode(type: ColumnType, value: unknown): unknown;
  /**
   * Case-insensitive "contains" match. `pattern` is already wrapped in % and escaped with
   * ESCAPE_CHAR (see escapeLike), so user input can never act as a wildcard.
   */
  containsInsensitive(column: string, pattern: string): Expression<SqlBool>;
  /**
   * True when ORDER BY must say NULLS FIRST (asc) / NULLS LAST (desc) to sort NULL as the lowest
   * value, SQLite's behaviour and so the API's (PostgreSQL sorts NULL highest by default).
   */
  readonly explicitNullOrder: boolean;
  /** True when the JSON array stored in `column` holds any of `values`. */
  jsonArrayContainsAny(column: string, values: readonly unknown[]): Expression<SqlBool>;
  /** True when `error` is this engine's refusal of a write by a unique index or primary key. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * What ends a `SELECT ... LIMIT n` that picks rows to claim, so instances claiming together never
   * pick the same row: PostgreSQL's `FOR UPDATE SKIP LOCKED`; '' where writes are serialised
   * anyway and the claiming UPDATE ... WHERE id = (SELECT ...) is already atomic (SQLite, one process).
   */
  readonly skipLockedRows: string;
  /** The names of `table`'s columns, one row each (no rows when it does not exist). */
  columnsOf(table: string): RawBuilder<{ name: string }>;
}

export const LIKE_ESCAPE_CHAR = '\\';

/** Escapes LIKE wildcards (% and _) and the escape character itself, then wraps in %...%. */
export function containsPattern(text: string): string {
  const escaped = text.replace(/[\\%_]/g, (ch) => LIKE_ESCAPE_CHAR + ch);
  return `%${escaped}%`;
}
