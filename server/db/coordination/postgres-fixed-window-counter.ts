import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

/** Epoch milliseconds by the database's clock, so every instance counts in the same window. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** Finished windows are deleted every this many hits (of this instance). */
const SWEEP_EVERY = 500;
/** The longest window a backoff may reach, as @fastify/rate-limit's own stores cap it. */
const MAX_SAFE_MS = Number.MAX_SAFE_INTEGER;
/** 2^64 times any window of 1 ms or more is past MAX_SAFE_MS already: a larger exponent changes nothing and would only grow the numbers. */
const MAX_BACKOFF_EXPONENT = 64;

/**
 * What a hit over the limit does to its window, as @fastify/rate-limit's options of the same
 * names: 'keep' leaves it to end when it would have; 'restart' (`continueExceeding`) starts it
 * again from this hit; 'backoff' (`exponentialBackoff`) makes it end windowMs × 2^(count − max − 1)
 * from this hit.
 */
export type OverLimit = 'keep' | 'restart' | 'backoff';

export interface FixedWindowHit {
  key: string;
  windowMs: number;
  /** Needed with `overLimit` other than 'keep': the count past which a hit is over the limit. */
  max?: number;
  overLimit?: OverLimit;
}

/** A window's count so far (this hit included), when it ends (epoch ms, database clock) and how long until then. */
export interface FixedWindowCount {
  count: number;
  resetAt: number;
  ttlMs: number;
}

export interface FixedWindowCounterOptions {
  /** The unlogged table of this counter's windows (one of server/db/owned-tables.ts). */
  table: string;
  /** Named in the warning when deleting finished windows fails. */
  label: string;
  log: FastifyBaseLogger;
}

/**
 * Fixed-window counters shared by every instance on one PostgreSQL database: a row per key in an
 * unlogged table (counters need no crash safety), counted in one upsert with the database's clock,
 * so a limit of 20 a minute is 20 a minute across every instance, as with Redis. Used by the HTTP
 * rate limit (postgres-rate-limit-store.ts) and the chat's per-conversation counter
 * (postgres-locks-and-counters.ts).
 */
export function postgresFixedWindowCounter(pool: pg.Pool, options: FixedWindowCounterOptions): (hit: FixedWindowHit) => Promise<FixedWindowCount> {
  const { table, log } = options;
  let hits = 0;
  return async ({ key, windowMs, max, overLimit = 'keep' }) => {
    if (overLimit !== 'keep' && !(Number.isInteger(max) && max! >= 0)) {
      throw new Error(`postgresFixedWindowCounter(${table}): overLimit '${overLimit}' needs max, a whole number of 0 or more (got ${String(max)})`);
    }
    const expired = `w.reset_at <= ${NOW_MS}`;
    const over = 'w.count + 1 > $3';
    // Within a live window, the end a hit gives it (mirrors the plugin's Redis script).
    const liveEnd =
      overLimit === 'restart'
        ? `CASE WHEN ${over} THEN ${NOW_MS} + $2 ELSE w.reset_at END`
        : overLimit === 'backoff'
          ? `CASE WHEN ${over} THEN ${NOW_MS} + LEAST($2::numeric * power(2::numeric, LEAST(w.count - $3, ${MAX_BACKOFF_EXPONENT})), ${MAX_SAFE_MS})::bigint ELSE w.reset_at END`
          : 'w.reset_at';
    const { rows } = await pool.query<{ count: number; reset_at: string; ttl: string }>(
      `INSERT INTO ${table} AS w (key, count, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN ${expired} THEN 1 ELSE w.count + 1 END,
         reset_at = CASE WHEN ${expired} THEN ${NOW_MS} + $2 ELSE ${liveEnd} END
       RETURNING count, reset_at, reset_at - ${NOW_MS} AS ttl`,
      overLimit === 'keep' ? [key, windowMs] : [key, windowMs, max],
    );
    if (++hits % SWEEP_EVERY === 0) {
      void pool.query(`DELETE FROM ${table} WHERE reset_at < ${NOW_MS}`).catch((error) => log.warn({ err: error }, `${options.label} sweep failed`));
    }
    return { count: Number(rows[0].count), resetAt: Number(rows[0].reset_at), ttlMs: Math.max(0, Number(rows[0].ttl)) };
  };
}
