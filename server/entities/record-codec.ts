import type { SqlDialect } from '../db/sql-dialect.ts';
import type { Row, RowBatch } from '../db/database.ts';
import type { EntityDefinition } from './entity-definition.ts';

type RowReader = (row: Row) => Record<string, unknown>;
type ArrayReader = (row: readonly unknown[]) => Record<string, unknown>;

/** Readers per definition, by dialect, row form and the rows' column list (a page, a ref lookup, a find). */
const readers = new WeakMap<EntityDefinition, Map<string, RowReader | ArrayReader>>();
/** Past this many column lists for one definition the readers start over (lists come from code, few). */
const MAX_READERS = 64;
/**
 * Array readers by the column list's identity: SQLite hands out one list per prepared statement
 * (server/db/sqlite-database.ts), so a page's reader is found without joining its column names.
 */
const arrayReaders = new WeakMap<readonly string[], { definition: EntityDefinition; dialect: SqlDialect; read: ArrayReader }>();

/**
 * A reader of rows with exactly these columns, generated once: it builds each record as one
 * object literal, so every record of an entity shares one hidden class with its properties in
 * the object (V8's fast properties). Records built key by key fell into dictionary mode past 19
 * properties and cost about 4x as much to build and serialise (bot traces have 20; issue 30).
 * Column names come from the manifest and are quoted with JSON.stringify, so the generated source
 * holds no text that could be anything but a property name.
 *
 * `arrays`: rows as the drivers' arrays in `columns` order (Database.read), read by index. A
 * driver's row objects are themselves built key by key, so past 19 columns each one is the slow
 * kind, made only to be read once (10 bot traces: 160 µs as objects, 87 µs as arrays).
 */
function readerFor(definition: EntityDefinition, dialect: SqlDialect, columns: readonly string[], arrays: true): ArrayReader;
function readerFor(definition: EntityDefinition, dialect: SqlDialect, columns: readonly string[], arrays: false): RowReader;
function readerFor(definition: EntityDefinition, dialect: SqlDialect, columns: readonly string[], arrays: boolean): RowReader | ArrayReader {
  let byColumns = readers.get(definition);
  if (!byColumns) readers.set(definition, (byColumns = new Map()));
  const key = `${dialect.name}\u0000${arrays ? '[' : '{'}\u0000${columns.join('\u0000')}`;
  let reader = byColumns.get(key);
  if (reader) return reader;
  const fields = columns.map((name, index) => {
    const column = definition.columns.get(name);
    const value = arrays ? `row[${index}]` : `row[${JSON.stringify(name)}]`;
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
  const read = readerFor(definition, dialect, Object.keys(rows[0]), false);
  const records = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) records[i] = read(rows[i]);
  return records;
}

/** Rows read as arrays (Database.read, Database.stream) back to their API form via the dialect. */
export function decodeBatch(definition: EntityDefinition, dialect: SqlDialect, batch: RowBatch): Record<string, unknown>[] {
  const { columns, rows } = batch;
  if (rows.length === 0) return [];
  let known = arrayReaders.get(columns);
  if (!known || known.definition !== definition || known.dialect !== dialect) {
    known = { definition, dialect, read: readerFor(definition, dialect, columns, true) };
    arrayReaders.set(columns, known);
  }
  const read = known.read;
  const records = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) records[i] = read(rows[i]);
  return records;
}

/** A stored row back to its API form (booleans, parsed JSON) via the dialect. */
export function decodeRow(definition: EntityDefinition, dialect: SqlDialect, row: Row): Record<string, unknown> {
  return readerFor(definition, dialect, Object.keys(row), false)(row);
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
