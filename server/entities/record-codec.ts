import type { SqlDialect } from '../db/sql-dialect.ts';
import type { Row } from '../db/database.ts';
import type { EntityRuntime } from './entity-runtime.ts';

/** A stored row back to its API form (booleans, parsed JSON) via the dialect. */
export function decodeRow(runtime: EntityRuntime, dialect: SqlDialect, row: Row): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key in row) {
    const column = runtime.columns.get(key);
    record[key] = column ? dialect.decode(column.type, row[key]) : row[key];
  }
  return record;
}

/** API values to column values; keys without a column are a programming error. */
export function encodeValues(runtime: EntityRuntime, dialect: SqlDialect, values: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(values)) {
    const column = runtime.columns.get(key);
    if (!column) throw new Error(`Entity "${runtime.model.name}" has no column "${key}"`);
    row[key] = dialect.encode(column.type, value);
  }
  return row;
}
