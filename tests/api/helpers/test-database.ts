import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { migrateEntities } from '../../../server/db/migrate-entities.ts';
import { entities } from '../../../server/generated/entities.ts';

/**
 * Which engine the API tests run on: FORJA_TEST_DB=postgres (the `api-postgres` vitest project)
 * gives every test server a database of its own, created from DATABASE_URL_TEST's server and
 * dropped when the server closes; anything else is SQLite under the server's DATA_DIR.
 */
export type TestBackend = 'sqlite' | 'postgres';
export const TEST_BACKEND: TestBackend = process.env.FORJA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** Remembers a data dir's database so a restart on the same DATA_DIR finds the same data. */
const MARKER = '.forja-test-database-url';

function adminUrl(): string {
  const url = process.env.DATABASE_URL_TEST?.trim();
  if (!url) throw new Error('FORJA_TEST_DB=postgres needs DATABASE_URL_TEST (a postgres:// URL of a role that may CREATE DATABASE)');
  return url;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database; returns its URL. */
export async function createTestPostgresDatabase(prefix = 'forja_test'): Promise<string> {
  // forja_test_<run>_...: the api-postgres global setup drops what is left of its run at the end.
  const run = inject('forjaTestRun');
  const name = `${prefix}${run ? `_${run}` : ''}_${randomBytes(6).toString('hex')}`;
  // C collation: text orders by code point as in SQLite, so sorted lists match on both engines.
  await withAdmin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop database ${JSON.stringify(name)}`);
  // A connection may still be closing (or be a background worker the test role may not end):
  // retry briefly, then leave the database behind with a warning rather than fail a green test.
  for (let attempt = 0; ; attempt++) {
    try {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (error) {
      if (attempt >= 5) {
        console.warn(`test database ${name} not dropped: ${(error as Error).message}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
}

/** DATABASE_URL for a test server on `dataDir`: null (SQLite) or its own PostgreSQL database. */
export async function testDatabaseUrl(dataDir: string, backend: TestBackend = TEST_BACKEND): Promise<string | null> {
  if (backend !== 'postgres') return null;
  const marker = path.join(dataDir, MARKER);
  if (fs.existsSync(marker)) return fs.readFileSync(marker, 'utf8').trim();
  const url = await createTestPostgresDatabase();
  fs.writeFileSync(marker, url);
  return url;
}

/**
 * Runs `work` on a second connection to a test server's database (same SQLite file, or a new pool
 * on its PostgreSQL database): for tests that look at storage directly or write behind the API.
 */
export async function withOtherConnection<T>(dataDir: string, work: (database: Database) => Promise<T>): Promise<T> {
  const marker = path.join(dataDir, MARKER);
  const databaseUrl = TEST_BACKEND === 'postgres' ? fs.readFileSync(marker, 'utf8').trim() : null;
  const database = openDatabase({ dataDir, databaseUrl });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Names of the indexes on `table`, on either engine. */
export async function tableIndexNames(database: Database, table: string): Promise<string[]> {
  const query =
    database.dialect.name === 'postgres'
      ? sql`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table}`
      : sql`SELECT name FROM pragma_index_list(${table})`;
  return (await database.all(query.compile(database.kysely))).map((row) => String(row.name));
}

/**
 * A PostgreSQL database of its own with the entity tables migrated, a Database on it and a plain
 * pg client beside it (to look at the catalog or write behind the server's back); for tests of
 * the engine layer itself. Call `close` in afterAll.
 */
export async function migratedTestPostgres(prefix: string, log: Pick<FastifyBaseLogger, 'info' | 'warn'>) {
  const url = await createTestPostgresDatabase(prefix);
  const database = openDatabase({ dataDir: '.', databaseUrl: url });
  await migrateEntities(database, Object.values(entities), log);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const close = async () => {
    await client.end();
    await database.close();
    await dropTestPostgresDatabase(url);
  };
  return { url, database, client, close };
}
