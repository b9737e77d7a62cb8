import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { PostgresChangeFeed } from '../../server/db/postgres-change-feed.ts';
import { migratedTestPostgres, TEST_BACKEND } from './helpers/test-database.ts';

/**
 * The PostgreSQL change token (server/db/postgres-change-feed.ts): what lets callers and list
 * totals be cached on PostgreSQL although other instances write to the same database.
 */
describe.skipIf(TEST_BACKEND !== 'postgres')('PostgreSQL change token', () => {
  let url = '';
  let database: Database;
  let other: pg.Client;
  const quiet = { info() {}, warn() {} };
  const insertTenant = (name: string) =>
    other.query('INSERT INTO tenants ("_id", "name", "createdAt", "updatedAt") VALUES ($1, $1, $2, $2)', [name, new Date().toISOString()]);
  const settled = async () => {
    await expect.poll(() => database.changeToken().startsWith('pg:off'), { timeout: 5000, interval: 20 }).toBe(false);
  };

  let close = async () => {};
  beforeAll(async () => {
    ({ url, database, client: other, close } = await migratedTestPostgres('forja_feed', quiet));
  });
  afterAll(() => close());

  it('stays the same while nothing is written, so answers can be reused', async () => {
    await settled();
    const token = database.changeToken();
    await database.all(database.kysely.selectFrom('tenants').selectAll().compile());
    expect(database.changeToken()).toBe(token);
  });

  it('moves at once on its own writes and within milliseconds on anyone else\'s, SQL behind the API included', async () => {
    await settled();
    const before = database.changeToken();
    await database.run(database.kysely.insertInto('tenants').values({ _id: 'own', name: 'own', createdAt: 'x', updatedAt: 'x' }).compile());
    expect(database.changeToken()).not.toBe(before);
    // Our own notification arrives too, and moves it once more (it may already have).
    const changesOf = (token: string) => Number(token.split(':')[2]);
    await expect.poll(() => changesOf(database.changeToken()), { timeout: 5000, interval: 10 }).toBeGreaterThanOrEqual(changesOf(before) + 2);
    const settledToken = database.changeToken();
    await insertTenant('outside');
    await expect.poll(() => database.changeToken(), { timeout: 2000, interval: 10 }).not.toBe(settledToken);
    // A rolled-back write commits nothing and notifies nothing: the committed write after it
    // (notifications arrive in commit order) moves the token by exactly one.
    const quietToken = database.changeToken();
    await other.query('BEGIN');
    await insertTenant('rolled-back');
    await other.query('ROLLBACK');
    await insertTenant('after-rollback');
    await expect.poll(() => database.changeToken(), { timeout: 2000, interval: 10 }).not.toBe(quietToken);
    expect(changesOf(database.changeToken())).toBe(changesOf(quietToken) + 1);
  });

  it('heartbeats do not count as changes, and a connection that stops delivering is treated as down', async () => {
    const feed = new PostgresChangeFeed(url, { heartbeatMs: 50, heartbeatTimeoutMs: 300 });
    try {
      await expect.poll(() => feed.token().startsWith('pg:off'), { timeout: 5000, interval: 20 }).toBe(false);
      const token = feed.token();
      const beats = () => (feed as unknown as { beats: number }).beats;
      const first = beats();
      await expect.poll(() => beats(), { timeout: 3000, interval: 10 }).toBeGreaterThanOrEqual(first + 3);
      expect(feed.token()).toBe(token);
      // As behind a proxy that dropped the socket, or a pooler that accepts LISTEN and delivers nothing.
      const client = (feed as unknown as { client: pg.Client }).client;
      client.removeAllListeners('notification');
      await expect.poll(() => feed.token().startsWith('pg:off'), { timeout: 3000, interval: 20 }).toBe(true);
      // It reconnects on a new connection and is trusted again.
      await expect.poll(() => feed.token().startsWith('pg:off'), { timeout: 5000, interval: 50 }).toBe(false);
    } finally {
      await feed.close();
    }
  });

  it('while its LISTEN connection is down every token is new (nothing reused), and it reconnects', async () => {
    await settled();
    // Ends the feed's LISTEN session as a database restart or a network cut would.
    const ended = await other.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(ended.rowCount).toBeGreaterThan(0);
    await expect.poll(() => database.changeToken().startsWith('pg:off'), { timeout: 2000, interval: 10 }).toBe(true);
    expect(database.changeToken()).not.toBe(database.changeToken());
    await settled();
    const token = database.changeToken();
    expect(database.changeToken()).toBe(token);
  });
});
