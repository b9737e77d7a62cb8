import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from './helpers/test-database.ts';
import { startPostgresInstances, type PostgresInstances } from './helpers/postgres-instances.ts';
import { until as untilEvery } from './helpers/until.ts';
import { call, type ChildServer } from '../fuzz/helpers/child-server.ts';
import { postgresSlotLeases } from '../../server/db/coordination/postgres-slot-leases.ts';
import { postgresRateLimitStore } from '../../server/db/coordination/postgres-rate-limit-store.ts';

/**
 * Per-IP and per-user limits across two real server processes on one PostgreSQL database and no
 * Redis (README.md "Scaling out"): the public chat's per-IP counter (postgres-rate-limit-store.ts),
 * a user's upload quota (postgres-byte-ledger.ts) and concurrent exports (leases,
 * postgres-slot-leases.ts) count what both instances saw, and the leases of an instance killed -9
 * stop counting once they expire.
 *
 * The instances only enqueue (JOBS_CONCURRENCY=0), so an export request stays open with its job
 * queued and its slot held for as long as the test wants: no timing decides what is running.
 * Leases last 600 s here; their expiry is brought forward in the table (the database's clock is
 * what they are compared with), standing in for the time passing.
 */
const enabled = TEST_BACKEND === 'postgres';
const START_LIMIT = 4;
const LEASE_SECONDS = 600;
const UPLOAD_QUOTA = 1000;

interface Job {
  id: string;
  kind: string;
  state: string;
}

const until = <T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string) => untilEvery(read, ok, what, { tries: 600, everyMs: 100 });

describe.skipIf(!enabled)('limits across two instances on PostgreSQL without Redis', () => {
  let cluster: PostgresInstances;
  let databaseUrl = '';
  let a: ChildServer;
  let b: ChildServer;
  let sql: pg.Client;
  let token = '';

  const queuedExports = async (base: string): Promise<Job[]> => {
    const listed = await call(base, token, 'GET', '/api/jobs?kind=export&state=queued&limit=100');
    expect(listed.status, listed.text).toBe(200);
    return listed.body.items as Job[];
  };
  /** Starts an export that stays open (its job waits in the queue); resolves to its eventual answer. */
  const openExport = (base: string) => call(base, token, 'GET', '/api/bots/export?format=csv');
  const cancelAll = async () => {
    for (const job of await queuedExports(a.baseUrl)) {
      const cancelled = await call(a.baseUrl, token, 'POST', `/api/jobs/${job.id}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
    }
  };
  const liveLeases = async (): Promise<number> => {
    const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM forja_slot_leases WHERE name LIKE 'exports:%' AND expires_at > (extract(epoch from now()) * 1000)::bigint");
    return Number(rows[0].n);
  };

  beforeAll(async () => {
    cluster = await startPostgresInstances({
      databasePrefix: 'forja_limits_multi',
      count: 2,
      env: {
        JOBS_CONCURRENCY: '0',
        SLOT_LEASE_SECONDS: String(LEASE_SECONDS),
        CHAT_RATE_START_PER_MINUTE: String(START_LIMIT),
        UPLOAD_QUOTA_BYTES: String(UPLOAD_QUOTA),
      },
    });
    ({ databaseUrl, token } = cluster);
    [a, b] = cluster.instances;
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    await sql?.end().catch(() => {});
    await cluster?.close();
  }, 60_000);

  it('counts the public chat per-IP limit across both instances', async () => {
    const bot = await call(a.baseUrl, token, 'POST', '/api/bots', { name: 'Límites', description: 'Dos instancias' });
    expect(bot.status, bot.text).toBe(201);
    const start = (base: string, i: number) => call(base, null, 'POST', '/api/chat/start', { name: `Visitante ${i}`, email: `v${i}@example.com`, botId: bot.body._id });
    // The client's budget is one budget: spent alternately through A and B, then both refuse.
    for (let i = 0; i < START_LIMIT; i++) {
      const started = await start(i % 2 === 0 ? a.baseUrl : b.baseUrl, i);
      expect(started.status, started.text).toBe(201);
    }
    const overA = await start(a.baseUrl, 10);
    const overB = await start(b.baseUrl, 11);
    expect([overA.status, overB.status]).toEqual([429, 429]);
    expect(overB.body).toMatchObject({ i18nMessage: 'error.tooManyRequests' });
    // Another route keeps its own count (the plugin's per-route keys are kept in the shared store too).
    const read = await call(b.baseUrl, null, 'GET', `/api/chat/bot/${bot.body._id}`);
    expect(read.status, read.text).toBe(200);
  }, 60_000);

  it("counts a user's upload quota across both instances", async () => {
    const upload = async (base: string) => {
      const form = new FormData();
      form.append('file', new Blob(['x'.repeat(600)], { type: 'text/plain' }), 'notes.txt');
      const response = await fetch(`${base}/api/file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // 600 bytes through A, 600 through B (a file started under the quota may overshoot it once):
    // 1,200 of 1,000 spent in all, so both refuse the next, though each alone saw only 600.
    expect((await upload(a.baseUrl)).status).toBe(201);
    expect((await upload(b.baseUrl)).status).toBe(201);
    const [overA, overB] = [await upload(a.baseUrl), await upload(b.baseUrl)];
    expect([overA.status, overB.status]).toEqual([413, 413]);
    expect(overA.body).toMatchObject({ i18nMessage: 'error.uploadQuota' });
  }, 60_000);

  it("counts a user's concurrent exports across both instances, and frees the slot when one ends", async () => {
    const first = openExport(a.baseUrl);
    const second = openExport(b.baseUrl);
    // A job is queued only once its request holds a slot.
    await until(() => queuedExports(a.baseUrl), (jobs) => jobs.length === 2, 'two queued exports');
    expect(await liveLeases()).toBe(2);

    const [thirdA, thirdB] = await Promise.all([openExport(a.baseUrl), openExport(b.baseUrl)]);
    for (const third of [thirdA, thirdB]) {
      expect(third.status, third.text).toBe(429);
      expect(third.body).toMatchObject({ i18nMessage: 'error.tooManyConcurrent' });
    }
    expect(await queuedExports(b.baseUrl)).toHaveLength(2);

    // One ends (cancelled): its request answers and gives its slot back, so another may start.
    const [oldest] = await queuedExports(b.baseUrl);
    expect((await call(b.baseUrl, token, 'POST', `/api/jobs/${oldest.id}/cancel`)).status).toBe(200);
    const ended = await Promise.race([first, second]);
    expect(ended.status).not.toBe(200);
    await until(liveLeases, (n) => n === 1, 'the cancelled export giving its slot back');
    const fourth = openExport(b.baseUrl);
    await until(() => queuedExports(a.baseUrl), (jobs) => jobs.length === 2, 'the fourth export queued');
    expect(await liveLeases()).toBe(2);

    await cancelAll();
    await Promise.all([first, second, fourth]);
    await until(liveLeases, (n) => n === 0, 'every slot given back');
  }, 90_000);

  it('stops counting the slots of an instance killed -9 once their leases expire', async () => {
    const doomed = await cluster.spawn();
    void openExport(doomed.baseUrl).catch(() => undefined);
    void openExport(doomed.baseUrl).catch(() => undefined);
    await until(() => queuedExports(a.baseUrl), (jobs) => jobs.length === 2, "the doomed instance's two exports");
    await doomed.kill('SIGKILL');

    // Its leases outlive it until they expire: the user's two slots are still taken.
    expect(await liveLeases()).toBe(2);
    const refused = await openExport(a.baseUrl);
    expect(refused.status, refused.text).toBe(429);

    // The lease time passes with nobody renewing them (the clock moved forward in the table).
    const moved = await sql.query(`UPDATE forja_slot_leases SET expires_at = expires_at - ${(LEASE_SECONDS + 1) * 1000}`);
    expect(moved.rowCount).toBe(2);
    expect(await liveLeases()).toBe(0);
    const accepted = openExport(b.baseUrl);
    await until(() => queuedExports(a.baseUrl), (jobs) => jobs.length === 3, 'an export accepted after the expiry');
    // The expired leases were deleted when the slot was taken; only the new one is left.
    const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM forja_slot_leases WHERE name LIKE 'exports:%'");
    expect(Number(rows[0].n)).toBe(1);

    await cancelAll();
    await accepted;
  }, 120_000);

  it("the rate-limit store restarts or backs off a window over its limit as the plugin's options ask", async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const log = { warn: () => {} } as unknown as Parameters<typeof postgresRateLimitStore>[1];
    const Store = postgresRateLimitStore(pool, log);
    const WINDOW = 60_000;
    const MAX = 2;
    /** The store as the plugin uses it: a route's child store, counting `hits` hits on one key. */
    const counts = async (options: Record<string, unknown>, route: string, hits: number) => {
      const store = new Store(options as never).child({ ...options, routeInfo: { method: 'POST', url: route } } as never);
      const results: { current: number; ttl: number }[] = [];
      for (let i = 0; i < hits; i++) {
        results.push(await new Promise((resolve, reject) => store.incr('203.0.113.9', (error, result) => (error ? reject(error) : resolve(result!)), WINDOW, MAX)));
      }
      return results;
    };
    try {
      // Default: the window ends when it would have, over the limit or not.
      const kept = await counts({}, '/keep', 4);
      expect(kept.map((r) => r.current)).toEqual([1, 2, 3, 4]);
      for (const r of kept) expect(r.ttl).toBeLessThanOrEqual(WINDOW);
      expect(kept[3].ttl).toBeLessThanOrEqual(kept[2].ttl);

      // continueExceeding: every hit over the limit starts the window again.
      const restarted = await counts({ continueExceeding: true }, '/restart', 4);
      expect(restarted.map((r) => r.current)).toEqual([1, 2, 3, 4]);
      expect(restarted.slice(2).map((r) => r.ttl)).toEqual([WINDOW, WINDOW]);

      // exponentialBackoff: the n-th hit over the limit makes the window WINDOW × 2^(n-1) from now,
      // up to Number.MAX_SAFE_INTEGER (the plugin's Redis script, which shares its counters across instances too).
      const backedOff = await counts({ exponentialBackoff: true }, '/backoff', 80);
      expect(backedOff.slice(0, 6).map((r) => r.current)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(backedOff[1].ttl).toBeLessThanOrEqual(WINDOW);
      expect(backedOff.slice(2, 6).map((r) => r.ttl)).toEqual([WINDOW, 2 * WINDOW, 4 * WINDOW, 8 * WINDOW]);
      expect(backedOff[79]).toEqual({ current: 80, ttl: Number.MAX_SAFE_INTEGER });

      // Each route's options are its own: the same address on another route is not backed off.
      const other = await counts({}, '/other', 3);
      expect(other.map((r) => r.current)).toEqual([1, 2, 3]);
      expect(other[2].ttl).toBeLessThanOrEqual(WINDOW);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('a live holder keeps renewing its lease, so a slot held longer than the lease time still counts', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const log = { warn: () => {} } as unknown as Parameters<typeof postgresSlotLeases>[1]['log'];
    // A lease of 1.5 s, renewed every 0.5 s by its holder.
    const leases = postgresSlotLeases(pool, { ttlMs: 1500, log });
    try {
      const release = await leases.take('renewal:test', 1);
      expect(release).not.toBeNull();
      const expiry = async () => Number((await sql.query<{ e: string }>("SELECT expires_at AS e FROM forja_slot_leases WHERE name = 'renewal:test'")).rows[0]?.e ?? 0);
      const first = await expiry();
      // Renewed past its first expiry: still counted, so a second taker is refused.
      await until(expiry, (e) => e > first + 1500, 'the lease renewed beyond its first expiry');
      expect(await leases.take('renewal:test', 1)).toBeNull();
      release!();
      await until(expiry, (e) => e === 0, 'the released lease deleted');
      const again = await leases.take('renewal:test', 1);
      expect(again).not.toBeNull();
      again!();
    } finally {
      await leases.close();
      await pool.end();
    }
  }, 60_000);
});
