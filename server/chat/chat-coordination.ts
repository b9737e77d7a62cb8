import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { postgresPoolOf } from '../db/postgres-database.ts';
import { postgresChatCoordination } from './postgres-chat-coordination.ts';
import { redisChatCoordination } from './redis-chat-coordination.ts';

/** A fixed window's count so far (this hit included) and when it ends (epoch milliseconds). */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/** Releases a lock taken with tryLock. */
export type ReleaseLock = () => Promise<void>;

/**
 * What the chat shares between instances: the per-conversation lock (conversation-locks.ts) and
 * the per-conversation message counter (conversation-rate-limit.ts).
 */
export interface ChatCoordination {
  readonly backend: 'redis' | 'postgres';
  /** Takes the lock named `key` when no instance holds it; null when one does (the caller waits and retries). */
  tryLock(key: string): Promise<ReleaseLock | null>;
  /** Counts one hit in `key`'s current window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

/**
 * Redis when REDIS_URL is set (a lease renewed while held, so a dead instance's lock lapses within
 * seconds), else PostgreSQL when the database is (session advisory locks on one connection of
 * this instance's own, released by the server if it dies, and an unlogged counter table), else
 * null: SQLite is one process, and the in-process lock and counter are exact.
 */
export function createChatCoordination(options: { database: Database; redisUrl: string | null; log: FastifyBaseLogger }): ChatCoordination | null {
  if (options.redisUrl) return redisChatCoordination(options.redisUrl, options.log);
  const pool = postgresPoolOf(options.database);
  if (pool) return postgresChatCoordination(pool, options.log);
  return null;
}
