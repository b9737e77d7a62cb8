import type { SqlDialect } from '../db/sql-dialect.ts';
import type { Row } from '../db/database.ts';
import type { EntityDefinition } from './entity-definition.ts';

type RowReader = (row: Row) => Record<string, unknown>;

/** Readers per definition, by dialect and the rows' column list (a page, a ref lookup, a find). */
const readers = new WeakMap<EntityDefinition, Map<string, RowReader>>();
/** Past this many column lists for one definition the readers start over (lists come from code, few). */
const MAX_READERS = 64;

/**
 * A reader of rows with exactly these columns, generated once: it builds each record as one
 * object literal, so every record of an entity shares one hidden class with its properties in
 * the object (V8's fast properties). Records built key by key fell into dictionary mode past 19
 * properties and cost about 4x as much to build and serialise (bot traces have 20; issue 30).
 * Column names come from the manifest and are quoted with JSON.stringify, so the generated source
 * holds no text that could be anything but a property name.
 */
function readerFor(definition: EntityDefinition, dialect: SqlDialect, columns: readonly string[]): RowReader {
  let byColumns = readers.get(definition);
  if (!byColumns) readers.set(definition, (byColumns = new Map()));
  const key = `${dialect.name}\u0000${columns.join('\u0000')}`;
  let reader = byColumns.get(key);
  if (reader) return reader;
  const fields = columns.map((name) => {
    const column = definition.columns.get(name);
    const value = `row[${JSON.stringify(name)}]`;
    return `${JSON.stringify(name)}: ${column ? `decode(${JSON.stringify(column.type)}, ${value})` : value}`;
  });
  const decode = (type: string, value: unknown) => dialect.decode(type as never, value);
  reader = new Function('decode', `return function readRow(row) { return { ${fields.join(', ')} }; };`)(decode) as RowReader;
  if (byColumns.size >= MAX_READERS) byColumns.clear();
  byColumns.set(key, reader);
  return reader;
}

/** Stored rows (all with the same columns, as one query returns them) back to their API form via the dialect. */
export function decodeRows(definition: EntityDefinition, dialect: SqlDialect, rows: readonly Row[]): Record<string, unknown>[] {
  if (rows.length === 0) return [];
  const read = readerFor(definition, dialect, Object.keys(rows[0]));
  const records = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) records[i] = read(rows[i]);
  return records;
}

/** A stored row back to its API form (booleans, parsed JSON) via the dialect. */
export function decodeRow(definition: EntityDefinition, dialect: SqlDialect, row: Row): Record<string, unknown> {
  return readerFor(definition, dialect, Object.keys(row))(row);
}

/** API values to column values; keys without a column are a programming error. */
export function encodeValues(definition: EntityDefinition, dialect: SqlDialect, values: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(values)) {
    const column = definition.columns.get(key);
    if (!column) throw new Error(`Entity "${definition.model.name}" has no column "${key}"`);
    row[key] = dialect.encode(column.type, value);
  }
  return row;
}
