import type { RateLimitPluginOptions } from '@fastify/rate-limit';

/**
 * What several instances of Forja must agree on besides the data: locks, fixed-window counters,
 * concurrency slots and a byte ledger. One interface, three homes in this folder: process memory
 * (SQLite: one process, so in-process is exact), PostgreSQL (several instances on one database)
 * and Redis (locks and counters when REDIS_URL is set). Features ask for these here and never
 * see a driver handle (docs/architecture.md, "One seam per engine").
 */

/** A fixed window's count so far (this hit included) and when it ends (epoch milliseconds). */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/** Releases a lock taken with tryLock. */
export type ReleaseLock = () => Promise<void>;

/** Gives a slot back; safe to call more than once. */
export type ReleaseSlot = () => void;

/**
 * Locks and counters every instance respects: the chat's per-conversation lock
 * (server/chat/conversation-locks.ts) and message counter (server/chat/conversation-rate-limit.ts).
 */
export interface SharedLocksAndCounters {
  readonly backend: 'redis' | 'postgres';
  /** Takes the lock named `key` when no instance holds it; null when one does (the caller waits and retries). */
  tryLock(key: string): Promise<ReleaseLock | null>;
  /** Counts one hit in `key`'s current window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

/** Where the slots of a ConcurrencyLimit (server/files/user-limiter.ts) are counted. */
export interface SlotStore {
  /** Takes one of `max` slots named `name`; null when all are taken. */
  take(name: string, max: number): Promise<ReleaseSlot | null>;
}

/** Where a ByteBudget (server/files/user-limiter.ts) records what each key spent. */
export interface ByteLedger {
  /** Bytes recorded for `key` in the last `windowMs`. */
  used(key: string, windowMs: number): Promise<number>;
  record(key: string, bytes: number): Promise<void>;
}

/** What @fastify/rate-limit counts in: its own Redis store, a store class, or (neither) its memory. */
export type RateLimitStoreOptions = Pick<RateLimitPluginOptions, 'redis' | 'nameSpace' | 'store' | 'skipOnError'>;

/** Everything instances coordinate on, for one server: created once by createCoordination. */
export interface Coordination {
  /** Locks and counters shared with other instances; null on SQLite, where this process's own are exact. */
  readonly shared: SharedLocksAndCounters | null;
  /** Concurrency slots whose leases lapse `ttlMs` after an instance stops renewing them. */
  slots(ttlMs: number): SlotStore;
  readonly ledger: ByteLedger;
  readonly rateLimitStore: RateLimitStoreOptions;
  /** Answers when each shared store is reachable (the readiness probe), throwing otherwise. */
  readonly probes: Record<string, () => Promise<void>>;
  close(): Promise<void>;
}
