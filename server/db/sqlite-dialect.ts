import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { ColumnType } from '../../contract/model/entity-model.ts';
import { LIKE_ESCAPE_CHAR, type SqlDialect } from './sql-dialect.ts';

/** Column type mapping; a registry so an unknown abstract type fails loudly. */
const COLUMN_TYPES: Record<ColumnType, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  // SQLite has no boolean: 0 / 1 in an INTEGER column.
  boolean: 'INTEGER',
  // JSON text; json_each / json_extract read it when a query needs to look inside.
  json: 'TEXT',
  // ISO-8601 strings in UTC sort and compare correctly as text.
  timestamp: 'TEXT',
};

export const sqliteDialect: SqlDialect = {
  explicitNullOrder: false,
  skipLockedRows: '',
  name: 'sqlite',

  columnType(type) {
    const mapped = COLUMN_TYPES[type];
    if (!mapped) throw new Error(`sqlite dialect: no column type for abstract type "${type}"`);
    return mapped;
  },

  encode(type, value) {
    if (value === undefined || value === null) return null;
    switch (type) {
      case 'boolean':
        return value ? 1 : 0;
      case 'json':
        return JSON.stringify(value);
      default:
        // better-sqlite3 refuses JS booleans as parameters.
        return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
  },

  decode(type, value) {
    if (value === null || value === undefined) return null;
    switch (type) {
      case 'boolean':
        return value === 1 || value === 1n || value === true;
      case 'json':
        return typeof value === 'string' ? JSON.parse(value) : value;
      default:
        return value;
    }
  },

  containsInsensitive(column: string, pattern: string): Expression<SqlBool> {
    // SQLite's LIKE is case-insensitive for ASCII letters (not for accented ones).
    return sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE ${sql.lit(LIKE_ESCAPE_CHAR)}`;
  },

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },

  columnsOf(table: string): RawBuilder<{ name: string }> {
    return sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`;
  },

  jsonArrayContainsAny(column: string, values: readonly unknown[]): Expression<SqlBool> {
    return sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${sql.ref(column)}) WHERE json_each.value IN (${sql.join(values.map((v) => sql`${v}`))}))`;
  },
};
