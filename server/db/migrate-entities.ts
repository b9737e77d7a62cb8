import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { ColumnType, EntityModel } from '../../contract/model/entity-model.ts';
import type { Database } from './database.ts';
import { MigrationRefusedError, formatPlan, planOn, type MigrationPlan, type MigrationStep } from './plan-migrations.ts';
import { createMigrationsTable, recordMigration } from './schema-snapshot.ts';
import type { SqlDialect } from './sql-dialect.ts';
import { CHANGE_CHANNEL } from './postgres-change-feed.ts';

/**
 * Brings the tables in line with the models by the plan planMigrations prints: tables and columns
 * added (new fields with a default backfilled into existing rows), renamed columns moved with
 * their data, type changes converted when every stored value converts, indexes created. All of it
 * in one transaction, recorded in forja_migrations; a change the plan refuses (a lossy type
 * change, say) throws MigrationRefusedError and nothing is changed. A column the model no longer
 * has is kept (its data may still matter) until `npm run db:prune` drops it.
 */
export async function migrateEntities(
  database: Database,
  models: readonly EntityModel[],
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<void> {
  // Several instances may start together: one migrates at a time (PostgreSQL: a transaction-scoped
  // advisory lock on one connection), the others then plan again and find nothing left to do.
  const stale = await database.kysely.transaction().execute(async (trx) => {
    if (database.dialect.name === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext('forja:migrate-entities'))`.execute(trx);
    const plan = await planOn(trx, database.dialect, models);
    if (plan.refusals.length > 0) throw new MigrationRefusedError(plan.refusals);
    const text = formatPlan(plan);
    if (plan.steps.length > 0) log.info(`schema plan:\n${text}`);
    for (const { table, column } of plan.kept) {
      log.warn({ table, column }, 'column exists in the database but not in the model; kept, not dropped (npm run db:prune drops it)');
    }
    const found = await applyPlan(trx, database, models, plan);
    if (database.dialect.name === 'postgres') await notifyChanges(trx, models);
    return found;
  });
  for (const index of stale) await rebuildConcurrently(database.kysely, index, log);
}

/**
 * Replaces an index made before NULLS FIRST without blocking the table: built CONCURRENTLY under
 * a temporary name, swapped in, the old one dropped CONCURRENTLY. Done outside the migration
 * transaction (CONCURRENTLY cannot run in one), so instances still serving are never stalled
 * behind a lock held for the whole build; a build interrupted half-way leaves only an invalid
 * temporary index, dropped by the next attempt.
 */
async function rebuildConcurrently(kysely: Kysely<any>, index: StaleIndex, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  const temporary = `${index.name}_nf`;
  log.info({ table: index.table, index: index.name }, 'rebuilding index with NULLS FIRST');
  await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.ref(temporary)}`.execute(kysely);
  await sql`CREATE INDEX CONCURRENTLY ${sql.ref(temporary)} ON ${sql.table(index.table)} (${nullsFirst(index.columns)})`.execute(kysely);
  await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.ref(index.name)}`.execute(kysely);
  await sql`ALTER INDEX ${sql.ref(temporary)} RENAME TO ${sql.ref(index.name)}`.execute(kysely);
}

interface StaleIndex {
  table: string;
  name: string;
  columns: string[];
}

function nullsFirst(columns: readonly string[]) {
  return sql.join(columns.map((column) => sql`${sql.ref(column)} NULLS FIRST`));
}

/**
 * Every write to an entity table, by any instance or tool, notifies CHANGE_CHANNEL when its
 * transaction commits (PostgresChangeFeed turns that into the change token). One notification
 * per statement at most, and PostgreSQL folds identical ones within a transaction.
 */
async function notifyChanges(trx: Kysely<any>, models: readonly EntityModel[]): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION forja_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify(${sql.lit(CHANGE_CHANNEL)}, ''); RETURN NULL; END $$`.execute(trx);
  // Only missing triggers are created: creating one locks its table, which a restart next to
  // running instances (a long export, say) should not have to wait for.
  const present = new Set(
    (await sql<{ table: string }>`SELECT c.relname AS "table" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE t.tgname = 'forja_notify_change' AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`.execute(trx)).rows.map((r) => r.table),
  );
  for (const { storage } of models) {
    if (present.has(storage.table)) continue;
    await sql`CREATE TRIGGER forja_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(storage.table)}
      FOR EACH STATEMENT EXECUTE FUNCTION forja_notify_change()`.execute(trx);
  }
}

/** Index name -> CREATE INDEX text of the indexes on `table` in the current schema. */
async function postgresIndexDefinitions(kysely: Kysely<any>, table: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = ${table}`.execute(kysely);
  return new Map(rows.map((r) => [r.name, r.definition]));
}

/** Runs the plan's steps on `kysely` (the migration's transaction) and records them; returns PostgreSQL indexes to rebuild. */
async function applyPlan(kysely: Kysely<any>, database: Database, models: readonly EntityModel[], plan: MigrationPlan): Promise<StaleIndex[]> {
  const { dialect } = database;
  const byTable = new Map(models.map((model) => [model.storage.table, model]));
  for (const step of plan.steps) {
    switch (step.kind) {
      case 'createTable': {
        let create = kysely.schema.createTable(step.table).ifNotExists();
        for (const column of byTable.get(step.table)!.storage.columns) {
          create = create.addColumn(column.name, sql.raw(dialect.columnType(column.type)), (c) => {
            let def = c;
            if (column.primaryKey) def = def.primaryKey();
            if (!column.nullable) def = def.notNull();
            return def;
          });
        }
        await create.execute();
        break;
      }
      case 'rename':
        await sql`ALTER TABLE ${sql.table(step.table)} RENAME COLUMN ${sql.ref(step.from)} TO ${sql.ref(step.to)}`.execute(kysely);
        break;
      case 'convert':
        await convertColumn(kysely, dialect, step);
        break;
      case 'addColumn':
        // Added columns are nullable whatever the model says: existing rows have no value and
        // SQLite cannot add a NOT NULL column without a default.
        await kysely.schema.alterTable(step.table).addColumn(step.column, sql.raw(dialect.columnType(step.columnType as ColumnType))).execute();
        break;
      case 'backfill':
        await kysely.updateTable(step.table).set({ [step.column]: dialect.encode(columnTypeOf(byTable, step.table, step.column), step.value) })
          .where(step.column, 'is', null).execute();
        break;
      case 'createIndex':
        break; // every index is ensured below (a converted column's indexes are re-created too)
    }
  }
  const stale: StaleIndex[] = [];
  for (const model of models) stale.push(...(await ensureIndexes(kysely, dialect, model)));
  if (plan.steps.length > 0 || JSON.stringify(plan.snapshot) !== JSON.stringify(plan.previous?.snapshot ?? null)) {
    await createMigrationsTable(kysely, dialect);
    await recordMigration(kysely, (plan.previous?.seq ?? 0) + 1, formatPlan({ ...plan, kept: [] }).split('\n').filter(Boolean).map((l) => l.trim()), plan.snapshot);
  }
  return stale;
}

function columnTypeOf(byTable: Map<string, EntityModel>, table: string, column: string): ColumnType {
  return byTable.get(table)!.storage.columns.find((c) => c.name === column)!.type;
}

/**
 * A column whose values change type: converted values go into a new column of the new type, which
 * then replaces the old one (SQLite cannot alter a column's type; its affinity would turn numbers
 * back into text). When the column type stays, only the values that change are rewritten.
 */
async function convertColumn(kysely: Kysely<any>, dialect: SqlDialect, step: Extract<MigrationStep, { kind: 'convert' }>): Promise<void> {
  const { table, column, from, to, updates } = step;
  if (from.column === to.column) {
    for (const [id, value] of updates) {
      await kysely.updateTable(table).set({ [column]: dialect.encode(to.column, value) }).where('_id', '=', id).execute();
    }
    return;
  }
  const temporary = `${column}__forja_new`;
  await kysely.schema.alterTable(table).addColumn(temporary, sql.raw(dialect.columnType(to.column))).execute();
  for (const [id, value] of updates) {
    await kysely.updateTable(table).set({ [temporary]: dialect.encode(to.column, value) }).where('_id', '=', id).execute();
  }
  if (!dialect.explicitNullOrder) {
    // SQLite refuses to drop an indexed column; PostgreSQL drops its indexes with it. Either way
    // ensureIndexes re-creates the model's indexes on the new column.
    const { rows } = await sql<{ name: string }>`SELECT DISTINCT l.name AS name FROM pragma_index_list(${table}) AS l, pragma_index_info(l.name) AS i
      WHERE i.name = ${column} AND l.origin = 'c'`.execute(kysely);
    for (const { name } of rows) await kysely.schema.dropIndex(name).execute();
  }
  await kysely.schema.alterTable(table).dropColumn(column).execute();
  await sql`ALTER TABLE ${sql.table(table)} RENAME COLUMN ${sql.ref(temporary)} TO ${sql.ref(column)}`.execute(kysely);
}

async function ensureIndexes(kysely: Kysely<any>, dialect: SqlDialect, model: EntityModel): Promise<StaleIndex[]> {
  const { table, indexes } = model.storage;
  const stale: StaleIndex[] = [];
  const definitions = dialect.explicitNullOrder ? await postgresIndexDefinitions(kysely, table) : new Map<string, string>();
  for (const index of indexes) {
    const create = kysely.schema.createIndex(index.name).ifNotExists().on(table);
    if (!dialect.explicitNullOrder) {
      await create.columns(index.columns).execute();
      continue;
    }
    // Lists sort NULL lowest (ASC NULLS FIRST, DESC NULLS LAST, as SQLite does). A PostgreSQL
    // index in its default order (NULLS LAST) can serve neither direction with that, and a page
    // of a million rows becomes a full sort; NULLS FIRST serves ASC forwards and DESC backwards.
    const definition = definitions.get(index.name);
    if (definition !== undefined && !/NULLS FIRST/i.test(definition)) {
      stale.push({ table, name: index.name, columns: index.columns });
      continue;
    }
    await create.expression(nullsFirst(index.columns)).execute();
  }
  return stale;
}

export { MigrationRefusedError, planMigrations, formatPlan } from './plan-migrations.ts';
