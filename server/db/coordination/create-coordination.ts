import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Database } from '../database.ts';
import { postgresPoolOf } from '../postgres-database.ts';
import type { Coordination } from './coordination.ts';
import { memoryLedger } from './memory-ledger.ts';
import { memorySlots } from './memory-slots.ts';
import { postgresByteLedger } from './postgres-byte-ledger.ts';
import { postgresLocksAndCounters } from './postgres-locks-and-counters.ts';
import { postgresRateLimitStore } from './postgres-rate-limit-store.ts';
import { postgresSlotLeases, type PostgresSlotLeases } from './postgres-slot-leases.ts';
import { redisLocksAndCounters } from './redis-locks-and-counters.ts';

/**
 * The coordination for one server, chosen once from its database and REDIS_URL:
 * - locks and counters in Redis when REDIS_URL is set (a lease renewed while held, so a dead
 *   instance's lock lapses within seconds), else on PostgreSQL when that is the database (session
 *   advisory locks and unlogged counter tables), else none shared: SQLite is one process, and its
 *   in-process locks and counters are exact;
 * - concurrency slots and the upload ledger in the database on PostgreSQL, else in memory;
 * - the HTTP rate limits in Redis, else PostgreSQL, else the rate-limit plugin's memory.
 * A Redis outage lets requests through (logged) rather than stopping sign-ins or chats.
 */
export function createCoordination(options: { database: Database; redisUrl: string | null; log: FastifyBaseLogger }): Coordination {
  const { database, redisUrl, log } = options;
  const pool = postgresPoolOf(database);
  const redis = redisUrl ? new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
  redis?.on('error', (error) => log.warn({ err: error }, 'redis (coordination) error'));
  const shared = redis ? redisLocksAndCounters(redis, log) : pool ? postgresLocksAndCounters(pool, log) : null;
  const leases: PostgresSlotLeases[] = [];
  return {
    shared,
    slots(ttlMs) {
      if (!pool) return memorySlots();
      const store = postgresSlotLeases(pool, { ttlMs, log });
      leases.push(store);
      return store;
    },
    ledger: pool ? postgresByteLedger(pool, log) : memoryLedger(),
    rateLimitStore: redis ? { redis, nameSpace: 'forja-rate-limit-', skipOnError: true } : pool ? { store: postgresRateLimitStore(pool, log), skipOnError: true } : {},
    probes: redis ? { redis: async () => void (await redis.ping()) } : {},
    async close() {
      // Before the database closes: leases are given back through its pool.
      await Promise.all(leases.map((store) => store.close()));
      await shared?.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
