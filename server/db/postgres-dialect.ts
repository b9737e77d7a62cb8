import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { ColumnType } from '../../contract/model/entity-model.ts';
import { LIKE_ESCAPE_CHAR, type SqlDialect } from './sql-dialect.ts';

/** Column type mapping; a registry so an unknown abstract type fails loudly. */
const COLUMN_TYPES: Record<ColumnType, string> = {
  text: 'TEXT',
  // BIGINT: millisecond counters and sizes overflow INTEGER; read back as JS numbers (postgres-database.ts).
  integer: 'BIGINT',
  real: 'DOUBLE PRECISION',
  boolean: 'BOOLEAN',
  // json, not jsonb: json keeps the document as written (key order, spacing of numbers), so API
  // answers and exports are byte-identical to SQLite's; jsonb would sort object keys. Queries that
  // look inside cast to jsonb (jsonArrayContainsAny).
  json: 'JSON',
  // ISO-8601 UTC strings as in SQLite, so values on the wire are byte-identical on both engines
  // and compare/sort correctly as text (a timestamptz would come back as a Date and re-format).
  timestamp: 'TEXT',
};

export const postgresDialect: SqlDialect = {
  explicitNullOrder: true,
  skipLockedRows: 'FOR UPDATE SKIP LOCKED',
  name: 'postgres',

  columnType(type) {
    const mapped = COLUMN_TYPES[type];
    if (!mapped) throw new Error(`postgres dialect: no column type for abstract type "${type}"`);
    return mapped;
  },

  encode(type, value) {
    if (value === undefined || value === null) return null;
    switch (type) {
      case 'boolean':
        return value === true || value === 1 || value === '1' || value === 'true';
      case 'json':
        // A string parameter is parsed by the server as jsonb; a JS array would be sent as a PG array.
        return JSON.stringify(value);
      default:
        return value;
    }
  },

  decode(type, value) {
    if (value === null || value === undefined) return null;
    switch (type) {
      case 'boolean':
        return value === true || value === 1 || value === 1n;
      case 'json':
        // node-postgres already parses json, so a string here is a JSON string value ("User").
        return value;
      default:
        return value;
    }
  },

  containsInsensitive(column: string, pattern: string): Expression<SqlBool> {
    // ILIKE folds every letter (accented ones too, unlike SQLite's ASCII-only LIKE). The cast lets
    // a numeric or json column be searched as its text, as SQLite does implicitly.
    return sql<SqlBool>`CAST(${sql.ref(column)} AS TEXT) ILIKE ${pattern} ESCAPE ${sql.lit(LIKE_ESCAPE_CHAR)}`;
  },

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === '23505';
  },

  columnsOf(table: string): RawBuilder<{ name: string }> {
    return sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`;
  },

  jsonArrayContainsAny(column: string, values: readonly unknown[]): Expression<SqlBool> {
    // One containment test per value: col @> '[v]' holds when the array has an element equal to v.
    const tests = values.map((v) => sql<SqlBool>`CAST(${sql.ref(column)} AS JSONB) @> CAST(${JSON.stringify([v])} AS JSONB)`);
    if (tests.length === 0) return sql<SqlBool>`FALSE`;
    return sql<SqlBool>`(${sql.join(tests, sql` OR `)})`;
  },
};
