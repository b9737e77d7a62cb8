/**
 * Copies a Forja database to another engine or location:
 *
 *   npm run db:copy -- --from sqlite:./data/forja.db --to postgres://user:pass@host/db [--batch-size 500]
 *
 * Every table is copied: the entity tables of the generated models (created on the target by the
 * same additive migration the server runs, so column types are the target's: jsonb, boolean...),
 * Forja's own tables (jobs, codes, rag_knowledge, rag_chunk...: server/db/owned-tables.ts, made on
 * the target as the server makes them), and any other table of the source (created on the target
 * from the source's columns). SQLite's
 * FTS5 tables (rag_fts_*) are not copied: on PostgreSQL rag_chunk.tsv is computed from the content.
 * Vectors (rag_vector) are copied only between SQLite files (no pgvector on PostgreSQL).
 *
 * Each table is copied in batches inside one transaction (all of its rows or none); the target
 * tables must be empty. A stderr line per batch shows progress. At the end the row counts of
 * source and target are compared; any mismatch exits with status 1.
 */
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database, type Row } from '../server/db/database.ts';
import { migrateEntities } from '../server/db/migrate-entities.ts';
import { createOwnedTables } from '../server/db/owned-tables.ts';
import { MIGRATIONS_TABLE } from '../server/db/schema-snapshot.ts';
import { entities } from '../server/generated/entities.ts';
import { indexCopiedKnowledge } from '../server/db/retrieval/create-retrieval-index.ts';

interface ColumnInfo {
  name: string;
  /** Lower-case declared type (sqlite) or data_type (postgres). */
  type: string;
  generated: boolean;
}

const log = (line: string) => process.stderr.write(line + '\n');
const quiet = { info: () => {}, warn: (o: unknown, m?: string) => log(`warning: ${m ?? ''} ${JSON.stringify(o)}`) };

export interface CopyOptions {
  batchSize?: number;
  /** Called after every batch; the default writes a progress line to stderr. */
  onProgress?: (table: string, copied: number, total: number) => void;
}

export async function copyDatabase(fromUrl: string, toUrl: string, options: CopyOptions = {}): Promise<{ tables: Array<{ table: string; source: number; target: number }>; ok: boolean }> {
  const progress = options.onProgress ?? ((table: string, copied: number, total: number) => log(`${table}: ${copied}/${total} rows`));
  const source = openDatabase({ dataDir: process.cwd(), databaseUrl: fromUrl });
  const target = openDatabase({ dataDir: process.cwd(), databaseUrl: toUrl });
  try {
    // The migration history recorded by migrateEntities below is replaced by the source's (the
    // fields as applied there), unless the target had one of its own already.
    const targetHadHistory = (await listTables(target)).includes(MIGRATIONS_TABLE);
    // Target schema as the server makes it: Forja's own tables (server/db/owned-tables.ts), then the models'.
    await createOwnedTables(target);
    await migrateEntities(target, Object.values(entities), quiet);

    const tables = (await listTables(source)).filter((t) => copyable(t, source, target));
    const report: Array<{ table: string; source: number; target: number }> = [];
    for (const table of tables) {
      const sourceColumns = await columnsOf(source, table);
      let targetColumns = await columnsOf(target, table);
      if (targetColumns.length === 0) {
        await createLike(target, table, sourceColumns);
        targetColumns = await columnsOf(target, table);
      }
      const targetByName = new Map(targetColumns.filter((c) => !c.generated).map((c) => [c.name, c]));
      const columns = sourceColumns.map((c) => c.name).filter((name) => targetByName.has(name));
      const total = await countRows(source, table);
      if (table === MIGRATIONS_TABLE && !targetHadHistory) await target.kysely.deleteFrom(table).execute();
      if ((await countRows(target, table)) > 0) throw new Error(`target table ${table} is not empty; copy into an empty database`);
      // PostgreSQL takes at most 65535 parameters per statement.
      const batchSize = Math.max(1, Math.min(options.batchSize ?? 500, Math.floor(60_000 / Math.max(1, columns.length))));
      let copied = 0;
      await target.kysely.transaction().execute(async (trx) => {
        // json read as its text (exactly as stored), so it reaches a SQLite TEXT column unchanged.
        const sourceTypes = new Map(sourceColumns.map((c) => [c.name, c.type]));
        const selection = columns.map((name) =>
          source.dialect.name === 'postgres' && /^jsonb?$/.test(sourceTypes.get(name) ?? '') ? sql`CAST(${sql.ref(name)} AS TEXT)`.as(name) : name,
        );
        const read = source.kysely.selectFrom(table).select(selection).compile();
        for await (const batch of source.stream(read, batchSize)) {
          const values = batch.rows.map((row) => convertRow(row, batch.columns, targetByName, target.dialect.name));
          await trx.insertInto(table).values(values).execute();
          copied += batch.rows.length;
          progress(table, copied, total);
        }
        if (total === 0) progress(table, 0, 0);
        await resetSequences(trx, target, table);
      });
      report.push({ table, source: total, target: 0 });
    }
    if (tables.includes('rag_chunk')) for (const line of await indexCopiedKnowledge(target)) log(line);
    for (const entry of report) {
      entry.source = await countRows(source, entry.table);
      entry.target = await countRows(target, entry.table);
    }
    return { tables: report, ok: report.every((e) => e.source === e.target) };
  } finally {
    await source.close();
    await target.close();
  }
}

async function listTables(database: Database): Promise<string[]> {
  if (database.dialect.name === 'sqlite') {
    // Virtual tables (FTS5) and their shadow tables are the engine's, not data to move.
    const rows = await database.all(
      sql`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`.compile(database.kysely),
    );
    const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(String(r.sql))).map((r) => String(r.name));
    return rows.map((r) => String(r.name)).filter((name) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
  }
  const rows = await database.all(
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.compile(database.kysely),
  );
  return rows.map((r) => String(r.name));
}

function copyable(table: string, source: Database, target: Database): boolean {
  if (/^rag_fts_\d+/.test(table)) return false;
  if (table === 'rag_vector' && target.dialect.name !== 'sqlite') {
    log('rag_vector: skipped (no pgvector on PostgreSQL: retrieval there is full text only)');
    return false;
  }
  return source !== target;
}

async function columnsOf(database: Database, table: string): Promise<ColumnInfo[]> {
  if (database.dialect.name === 'sqlite') {
    const rows = await database.all(sql`SELECT name, type, hidden FROM pragma_table_xinfo(${table})`.compile(database.kysely));
    return rows.map((r) => ({ name: String(r.name), type: String(r.type).toLowerCase(), generated: Number(r.hidden) !== 0 }));
  }
  const rows = await database.all(
    sql`SELECT column_name AS name, data_type AS type, is_generated AS generated FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`.compile(database.kysely),
  );
  return rows.map((r) => ({ name: String(r.name), type: String(r.type).toLowerCase(), generated: r.generated === 'ALWAYS' }));
}

/** A table the target lacks, from the source's columns (types mapped by SQLite affinity). */
async function createLike(target: Database, table: string, columns: ColumnInfo[]): Promise<void> {
  let create = target.kysely.schema.createTable(table).ifNotExists();
  for (const column of columns.filter((c) => !c.generated)) {
    const type = /int/.test(column.type)
      ? target.dialect.columnType('integer')
      : /real|floa|doub|numeric/.test(column.type)
        ? target.dialect.columnType('real')
        : /bool/.test(column.type)
          ? target.dialect.columnType('boolean')
          : /json/.test(column.type)
            ? target.dialect.columnType('json')
            : /blob|bytea/.test(column.type)
              ? (target.dialect.name === 'sqlite' ? 'BLOB' : 'BYTEA')
              : 'TEXT';
    create = create.addColumn(column.name, sql.raw(type));
  }
  await create.execute();
  log(`${table}: created on the target`);
}

function convertRow(row: unknown[], columns: readonly string[], targetColumns: Map<string, ColumnInfo>, targetEngine: string): Row {
  const out: Row = {};
  columns.forEach((name, i) => {
    out[name] = convertValue(row[i], targetColumns.get(name)!.type, targetEngine);
  });
  return out;
}

function convertValue(value: unknown, type: string, engine: string): unknown {
  if (value === null || value === undefined) return null;
  if (engine === 'postgres') {
    if (type === 'boolean') return value === true || value === 1 || value === 1n || value === '1' || value === 'true';
    if (type === 'jsonb' || type === 'json') return typeof value === 'string' ? value : JSON.stringify(value);
    if (type === 'text' && typeof value !== 'string' && !Buffer.isBuffer(value)) return typeof value === 'object' ? JSON.stringify(value) : String(value);
    return value;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

/** After explicit ids are copied, serial sequences continue above the largest one. */
async function resetSequences(trx: Kysely<any>, target: Database, table: string): Promise<void> {
  if (target.dialect.name !== 'postgres') return;
  const serials = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_default LIKE 'nextval(%'`.execute(trx);
  for (const { name } of serials.rows) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${name}), COALESCE((SELECT max(${sql.ref(name)}) FROM ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
}

async function countRows(database: Database, table: string): Promise<number> {
  const row = await database.first(database.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).compile());
  return Number(row?.n ?? 0);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, 'batch-size': { type: 'string' } },
  });
  if (!values.from || !values.to) {
    log('usage: npm run db:copy -- --from sqlite:./data/forja.db --to postgres://user:password@host:5432/forja [--batch-size 500]');
    process.exit(2);
  }
  const batchSize = values['batch-size'] ? Number(values['batch-size']) : undefined;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    log(`--batch-size must be a positive integer; got ${values['batch-size']}`);
    process.exit(2);
  }
  const result = await copyDatabase(values.from, values.to, { batchSize });
  for (const { table, source, target } of result.tables) {
    log(`${source === target ? 'ok      ' : 'MISMATCH'} ${table}: source ${source}, target ${target}`);
  }
  if (!result.ok) {
    log('db:copy: row counts differ (see MISMATCH lines); the target is incomplete');
    process.exit(1);
  }
  log(`db:copy: ${result.tables.length} tables copied, row counts match`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    log(`db:copy failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
