import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { Database } from './database.ts';
import { CHANGE_CHANNEL } from './postgres-change-feed.ts';

/**
 * Brings the tables in line with the models, additively: missing tables and columns are
 * created, indexes are created if absent. Nothing is ever dropped or altered: a column the
 * model no longer has is kept (its data may still matter) and only logged.
 */
export async function migrateEntities(
  database: Database,
  models: readonly EntityModel[],
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<void> {
  if (database.dialect.name !== 'postgres') {
    await migrate(database.kysely, database, models, log);
    return;
  }
  // Several instances may start together: one migrates at a time (a transaction-scoped advisory
  // lock on one connection), the others then find the tables and columns already there.
  const stale = await database.kysely.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('forja:migrate-entities'))`.execute(trx);
    const found = await migrate(trx, database, models, log);
    await notifyChanges(trx, models);
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

async function migrate(
  kysely: Kysely<any>,
  database: Database,
  models: readonly EntityModel[],
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<StaleIndex[]> {
  const { dialect } = database;
  const stale: StaleIndex[] = [];
  const existing = new Map(
    (await kysely.introspection.getTables()).map((table) => [table.name, new Set(table.columns.map((c) => c.name))]),
  );

  for (const model of models) {
    const { table, columns, indexes } = model.storage;
    const present = existing.get(table);
    if (!present) {
      let create = kysely.schema.createTable(table).ifNotExists();
      for (const column of columns) {
        create = create.addColumn(column.name, sql.raw(dialect.columnType(column.type)), (c) => {
          let def = c;
          if (column.primaryKey) def = def.primaryKey();
          if (!column.nullable) def = def.notNull();
          return def;
        });
      }
      await create.execute();
      log.info({ table }, 'created table');
    } else {
      for (const column of columns) {
        if (present.has(column.name)) continue;
        // Added columns are nullable whatever the model says: existing rows have no value and
        // SQLite cannot add a NOT NULL column without a default.
        await kysely.schema.alterTable(table).addColumn(column.name, sql.raw(dialect.columnType(column.type))).execute();
        log.info({ table, column: column.name }, 'added column');
      }
      const declared = new Set(columns.map((c) => c.name));
      for (const name of present) {
        if (!declared.has(name)) {
          log.warn({ table, column: name }, 'column exists in the database but not in the model; kept, not dropped');
        }
      }
    }
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
  }
  return stale;
}
