import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { migrateEntities } from '../../server/db/migrate-entities.ts';
import { entities } from '../../server/generated/entities.ts';
import { migratedTestPostgres, TEST_BACKEND } from './helpers/test-database.ts';

/**
 * Lists sort NULL lowest on both engines, so on PostgreSQL a page asks ORDER BY ... DESC NULLS LAST.
 * The indexes must be able to give that order, or a page of a million rows is a full sort
 * (measured: seconds per page in bench:api before they were).
 */
describe.skipIf(TEST_BACKEND !== 'postgres')('PostgreSQL list indexes', () => {
  let database: Database;
  let client: pg.Client;
  const logged: string[] = [];
  const log = { info: (_: unknown, message: string) => logged.push(message), warn() {} };
  const definition = async (name: string) =>
    (await client.query('SELECT indexdef FROM pg_indexes WHERE indexname = $1', [name])).rows[0]?.indexdef as string | undefined;

  let close = async () => {};
  beforeAll(async () => {
    ({ database, client, close } = await migratedTestPostgres('forja_idx', log as never));
  });
  afterAll(() => close());

  it('are NULLS FIRST, so one index serves a page in either direction without sorting it', async () => {
    expect(await definition('idx_bot_traces_status_createdat')).toBeUndefined(); // names keep their case
    expect(await definition('idx_bot_traces_status_createdAt')).toMatch(/\("?status"? NULLS FIRST, "createdAt" NULLS FIRST\)$/);
    // Enough rows, in 20 statuses, for the planner to weigh the plans as it would on real data.
    await client.query(`INSERT INTO bot_traces ("_id", "status", "createdAt", "updatedAt")
      SELECT 'id' || i, 's' || (i % 20), to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'x'
      FROM generate_series(1, 20000) AS i`);
    await client.query('ANALYZE bot_traces');
    for (const order of ['DESC NULLS LAST', 'ASC NULLS FIRST']) {
      const plan = (await client.query(`EXPLAIN SELECT * FROM bot_traces WHERE status = 's3' ORDER BY "createdAt" ${order}, "_id" LIMIT 10`)).rows
        .map((r) => r['QUERY PLAN'] as string)
        .join('\n');
      expect(plan).toMatch(/Index Scan (Backward )?using "?idx_bot_traces_status_createdAt"?/);
      // An incremental sort on _id within equal createdAt is fine; a sort of every row is not.
      expect(plan).not.toMatch(/->\s+Sort\b/);
    }
  });

  it('an index made before NULLS FIRST is rebuilt (concurrently, outside the migration transaction) by the next start-up', async () => {
    await client.query('DROP INDEX "idx_bot_traces_bot_createdAt"');
    await client.query('CREATE INDEX "idx_bot_traces_bot_createdAt" ON bot_traces ("bot", "createdAt")');
    await migrateEntities(database, Object.values(entities), log as never);
    expect(await definition('idx_bot_traces_bot_createdAt')).toMatch(/NULLS FIRST/);
    expect(await definition('idx_bot_traces_bot_createdAt_nf')).toBeUndefined(); // built concurrently under this name, then swapped in
    expect(logged).toContain('rebuilding index with NULLS FIRST');
  });
});
