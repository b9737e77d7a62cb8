import { sql } from 'kysely';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { Database } from './database.ts';
import { planOn } from './plan-migrations.ts';
import { createMigrationsTable, readLastMigration, recordMigration } from './schema-snapshot.ts';

/** A column no field declares any more, with what it still holds. */
export interface KeptColumn {
  table: string;
  column: string;
  /** Rows with a value in it. */
  values: number;
  /** Up to three of those values, as stored. */
  sample: unknown[];
}

const SAMPLE_SIZE = 3;

/** The columns `npm run db:prune` would drop: kept by the migrations after their field left the manifest. */
export async function keptColumns(database: Database, models: readonly EntityModel[]): Promise<KeptColumn[]> {
  const plan = await planOn(database.kysely, database.dialect, models);
  const kept: KeptColumn[] = [];
  for (const { table, column } of plan.kept) {
    const count = await database.kysely.selectFrom(table).select((eb) => eb.fn.count(column).as('n')).executeTakeFirstOrThrow();
    const sample = await database.kysely.selectFrom(table).select(column).where(column, 'is not', null).limit(SAMPLE_SIZE).execute();
    kept.push({ table, column, values: Number(count.n), sample: sample.map((row) => row[column]) });
  }
  return kept;
}

/**
 * Drops the kept columns (with their data) in one transaction and records it in forja_migrations;
 * under the migrations' lock, and only columns that are still unclaimed when it runs.
 */
export async function pruneColumns(database: Database, models: readonly EntityModel[], columns: readonly KeptColumn[]): Promise<void> {
  await database.kysely.transaction().execute(async (trx) => {
    if (database.dialect.name === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext('forja:migrate-entities'))`.execute(trx);
    const plan = await planOn(trx, database.dialect, models);
    const still = new Set(plan.kept.map((k) => `${k.table}.${k.column}`));
    const dropped: string[] = [];
    for (const { table, column, values } of columns) {
      if (!still.has(`${table}.${column}`)) continue;
      if (database.dialect.name !== 'postgres') {
        // SQLite refuses to drop an indexed column; PostgreSQL drops the indexes with it.
        const { rows } = await sql<{ name: string }>`SELECT DISTINCT l.name AS name FROM pragma_index_list(${table}) AS l, pragma_index_info(l.name) AS i
          WHERE i.name = ${column} AND l.origin = 'c'`.execute(trx);
        for (const { name } of rows) await trx.schema.dropIndex(name).execute();
      }
      await trx.schema.alterTable(table).dropColumn(column).execute();
      dropped.push(`drop column ${table}.${column} (${values} value(s))`);
    }
    if (dropped.length === 0) return;
    const tables = new Set((await trx.introspection.getTables()).map((t) => t.name));
    const last = await readLastMigration(trx, tables);
    const snapshot = { ...(last?.snapshot ?? plan.snapshot) };
    for (const { table, column } of columns) snapshot[table] = (snapshot[table] ?? []).filter((c) => c.name !== column);
    await createMigrationsTable(trx, database.dialect);
    await recordMigration(trx, (last?.seq ?? 0) + 1, dropped, snapshot);
  });
}
