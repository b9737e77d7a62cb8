import type { CompiledQuery } from 'kysely';
import type { Database } from '../db/database.ts';

/** Compiled INSERTs by table and column list, per database (the SQL differs by engine). */
const templates = new WeakMap<Database, Map<string, CompiledQuery>>();
/** Column lists remembered per database at most: an entity has a handful; this only bounds odd callers. */
const MAX_TEMPLATES = 1000;

/**
 * `INSERT INTO table (columns) VALUES (...)` for one row, as Kysely compiles it, built once per
 * table and column list and then reused with the row's values. Building and compiling the Kysely
 * query for every row was about a third of an import's time per row. Kysely leaves out columns
 * whose value is undefined and binds every other plain value as one parameter, in key order;
 * a row holding anything else (an object, which could be a Kysely expression) goes through
 * Kysely as before.
 */
export function compileInsert(database: Database, table: string, row: Record<string, unknown>): CompiledQuery {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (value === undefined) continue;
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return database.kysely.insertInto(table).values(row).compile();
    columns.push(column);
    values.push(value);
  }
  let byColumns = templates.get(database);
  if (!byColumns) templates.set(database, (byColumns = new Map()));
  const key = `${table}\u0000${columns.join('\u0000')}`;
  const template = byColumns.get(key);
  if (template) return { ...template, parameters: values };
  const compiled = database.kysely.insertInto(table).values(row).compile();
  if (byColumns.size >= MAX_TEMPLATES) byColumns.clear();
  byColumns.set(key, compiled);
  return compiled;
}
