import BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { createOwnedTables, type SchemaTarget } from '../../server/db/owned-tables.ts';

/**
 * Forja's own tables (server/db/owned-tables.ts) on a bare driver connection, as the server makes
 * them at start: for tests that drive an index or a store on a connection of their own.
 */
export async function withOwnedTables<T extends BetterSqlite3.Database | pg.Pool>(connection: T): Promise<T> {
  const target: SchemaTarget =
    connection instanceof BetterSqlite3
      ? {
          engine: 'sqlite',
          run: async (statement) => void connection.exec(statement),
          columns: async (table) => new Set(connection.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]),
        }
      : {
          engine: 'postgres',
          run: async (statement) => void (await (connection as pg.Pool).query(statement)),
          columns: async (table) =>
            new Set(
              (
                await (connection as pg.Pool).query<{ name: string }>(
                  'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
                  [table],
                )
              ).rows.map((row) => row.name),
            ),
        };
  await createOwnedTables(target);
  return connection;
}

/** An in-memory SQLite connection with Forja's own tables (the RAG index's among them). */
export function memorySqliteWithOwnedTables(): Promise<BetterSqlite3.Database> {
  return withOwnedTables(new BetterSqlite3(':memory:'));
}
