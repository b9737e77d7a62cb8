import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { postgresSchemaOnce } from '../db/postgres-schema-once.ts';

const TABLE = 'forja_rate_windows';
/** Epoch milliseconds by the database's clock, so every instance counts in the same window. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** Finished windows are deleted every this many hits (of this instance). */
const SWEEP_EVERY = 500;

type Done = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * @fastify/rate-limit's counters on PostgreSQL, for several instances sharing one database
 * without Redis: one fixed window per key (route + client address) in an unlogged table (counters
 * need no crash safety), counted in one upsert with the database's clock, so a limit of 20 a
 * minute is 20 a minute across every instance, as with Redis. `continueExceeding` and
 * `exponentialBackoff` are not supported (no route here sets them).
 */
export function postgresRateLimitStore(pool: pg.Pool, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  let hits = 0;

  const ensureTable = postgresSchemaOnce(pool, 'forja:rate-windows:schema', [
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (key text PRIMARY KEY, count integer NOT NULL, reset_at bigint NOT NULL)`,
  ]);

  const hit = async (key: string, windowMs: number) => {
    await ensureTable();
    const { rows } = await pool.query<{ count: number; ttl: string }>(
      `INSERT INTO ${TABLE} AS w (key, count, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN w.reset_at <= ${NOW_MS} THEN 1 ELSE w.count + 1 END,
         reset_at = CASE WHEN w.reset_at <= ${NOW_MS} THEN ${NOW_MS} + $2 ELSE w.reset_at END
       RETURNING count, reset_at - ${NOW_MS} AS ttl`,
      [key, windowMs],
    );
    if (++hits % SWEEP_EVERY === 0) {
      void pool.query(`DELETE FROM ${TABLE} WHERE reset_at < ${NOW_MS}`).catch((error) => log.warn({ err: error }, 'rate-limit window sweep failed'));
    }
    return { current: Number(rows[0].count), ttl: Math.max(0, Number(rows[0].ttl)) };
  };

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs the root store with its options object; child() passes the route's key prefix. */
    constructor(prefix?: unknown) {
      this.prefix = typeof prefix === 'string' ? prefix : 'forja-rate-limit-';
    }

    incr(key: string, done: Done, timeWindow: number): void {
      hit(this.prefix + key, timeWindow).then(
        (result) => done(null, result),
        (error: Error) => {
          log.warn({ err: error }, 'rate-limit counter (PostgreSQL) failed');
          done(error);
        },
      );
    }

    /** Each route counts apart, as the plugin's own stores do (its options carry `routeInfo`, the route). */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const { method, url } = (routeOptions as unknown as { routeInfo: { method?: string | string[]; url?: string } }).routeInfo;
      return new PostgresRateLimitStore(`${this.prefix}${method ?? ''}${url ?? ''}-`);
    }
  }
  return PostgresRateLimitStore;
}
