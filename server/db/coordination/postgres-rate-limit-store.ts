import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { postgresFixedWindowCounter, type OverLimit } from './postgres-fixed-window-counter.ts';

type Done = Parameters<FastifyRateLimitStore['incr']>[1];

/** What a route's over-limit hits do to its window, from the plugin's options (its root options or a route's merged ones). */
function overLimitOf(options: unknown): OverLimit {
  const { continueExceeding, exponentialBackoff } = (options ?? {}) as { continueExceeding?: unknown; exponentialBackoff?: unknown };
  // The plugin's own stores check continueExceeding first when both are set.
  if (continueExceeding === true) return 'restart';
  if (exponentialBackoff === true) return 'backoff';
  return 'keep';
}

/**
 * @fastify/rate-limit's counters on PostgreSQL, for several instances sharing one database
 * without Redis: one fixed window per key (route + client address), counted with the database's
 * clock (postgres-fixed-window-counter.ts), so a limit of 20 a minute is 20 a minute across every
 * instance, as with Redis. `continueExceeding` and `exponentialBackoff` work as in the plugin's
 * Redis store. `read` (the plugin's `{ increment: false }`) is not implemented: no route uses it,
 * and the plugin then fails with a message naming it.
 */
export function postgresRateLimitStore(pool: pg.Pool, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  const hit = postgresFixedWindowCounter(pool, { table: 'forja_rate_windows', label: 'rate-limit window', log });

  /** One route's counters (or the root's): keys under `prefix`, over-limit hits handled as `overLimit` says. */
  class RouteStore implements FastifyRateLimitStore {
    constructor(
      private readonly prefix: string,
      private readonly overLimit: OverLimit,
    ) {}

    incr(key: string, done: Done, timeWindow: number, max: number): void {
      hit({ key: this.prefix + key, windowMs: timeWindow, max, overLimit: this.overLimit }).then(
        ({ count, ttlMs }) => done(null, { current: count, ttl: ttlMs }),
        (error: Error) => {
          log.warn({ err: error }, 'rate-limit counter (PostgreSQL) failed');
          done(error);
        },
      );
    }

    /** Each route counts apart, as the plugin's own stores do (its options carry `routeInfo`, the route). */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const { method, url } = (routeOptions as unknown as { routeInfo: { method?: string | string[]; url?: string } }).routeInfo;
      return new RouteStore(`${this.prefix}${method ?? ''}${url ?? ''}-`, overLimitOf(routeOptions));
    }
  }

  /** The plugin constructs the root store with its global options. */
  return class PostgresRateLimitStore extends RouteStore {
    constructor(globalOptions: unknown) {
      super('forja-rate-limit-', overLimitOf(globalOptions));
    }
  };
}
