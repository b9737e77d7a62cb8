import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { EntityModel } from '../../generator/model/entity-model.ts';
import type { Database } from './database.ts';

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
  if (database.dialect.name !== 'postgres') return migrate(database.kysely, database, models, log);
  // Several instances may start together: one migrates at a time (a transaction-scoped advisory
  // lock on one connection), the others then find the tables and columns already there.
  await database.kysely.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('forja:migrate-entities'))`.execute(trx);
    await migrate(trx, database, models, log);
  });
}

async function migrate(
  kysely: Kysely<any>,
  database: Database,
  models: readonly EntityModel[],
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<void> {
  const { dialect } = database;
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
    for (const index of indexes) {
      await kysely.schema.createIndex(index.name).ifNotExists().on(table).columns(index.columns).execute();
    }
  }
}
