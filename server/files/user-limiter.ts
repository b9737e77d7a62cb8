import { HttpError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';

/** Who a limit counts against: the signed-in user, or one shared bucket for callers without one. */
export function limitKey(context: RequestContext): string {
  return context.userId ?? '(no user)';
}

/** Gives a slot back; safe to call more than once. */
export type ReleaseSlot = () => void;

/**
 * Where the slots of a ConcurrencyLimit are counted: in this process (SQLite, one process), or in
 * the database so every instance counts the same slots (postgres-slot-leases.ts).
 */
export interface SlotStore {
  /** Takes one of `max` slots named `name`; null when all are taken. */
  take(name: string, max: number): Promise<ReleaseSlot | null>;
}

/** Slots counted in this process: exact when it is the only one (SQLite). */
export function memorySlots(): SlotStore {
  const running = new Map<string, number>();
  return {
    async take(name, max) {
      const now = running.get(name) ?? 0;
      if (now >= max) return null;
      running.set(name, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(name) ?? 1) - 1;
        if (left <= 0) running.delete(name);
        else running.set(name, left);
      };
    },
  };
}

/**
 * How many jobs of one kind (exports, imports, uploads) each user runs at once. Each holds memory
 * (an import file is parsed whole) or grows a file, so one user opening many at once could
 * exhaust either; a third concurrent one is a 429, not a queue. Counted by `slots`: on PostgreSQL
 * across every instance (leases in the database), else in this process.
 */
export class ConcurrencyLimit {
  constructor(
    private readonly max: number,
    private readonly what: string,
    private readonly slots: SlotStore = memorySlots(),
  ) {}

  /** Takes a slot for `key` or throws 429; call the returned function exactly once when done. */
  async acquire(key: string): Promise<ReleaseSlot> {
    const release = await this.slots.take(`${this.what}:${key}`, this.max);
    if (!release) {
      throw new HttpError(429, `Too many ${this.what} running at once for this user (at most ${this.max}); wait for one to finish`, {
        i18nMessage: 'error.tooManyConcurrent',
      });
    }
    return release;
  }
}

/**
 * Where a ByteBudget records what each key spent: in this process (SQLite, one process), or in
 * the database so every instance counts the same bytes (postgres-byte-ledger.ts).
 */
export interface ByteLedger {
  /** Bytes recorded for `key` in the last `windowMs`. */
  used(key: string, windowMs: number): Promise<number>;
  record(key: string, bytes: number): Promise<void>;
}

/** Spending kept in this process: exact when it is the only one (SQLite). */
export function memoryLedger(clock: () => number = Date.now): ByteLedger {
  const spent = new Map<string, { at: number; bytes: number }[]>();
  return {
    async used(key, windowMs) {
      const now = clock();
      const entries = (spent.get(key) ?? []).filter((e) => now - e.at < windowMs);
      if (entries.length === 0) spent.delete(key);
      else spent.set(key, entries);
      return entries.reduce((sum, e) => sum + e.bytes, 0);
    },
    async record(key, bytes) {
      const entries = spent.get(key) ?? [];
      entries.push({ at: clock(), bytes });
      spent.set(key, entries);
    },
  };
}

/**
 * Bytes one user may write in a rolling window (uploads: 1 GiB a day by default), counted by
 * `ledger`: on PostgreSQL across every instance, else in this process.
 */
export class ByteBudget {
  constructor(
    private readonly maxBytes: number,
    private readonly windowMs: number,
    private readonly ledger: ByteLedger = memoryLedger(),
  ) {}

  used(key: string): Promise<number> {
    return this.ledger.used(key, this.windowMs);
  }

  /** Throws 413 when `key` has used up its budget (a file already started may overshoot it once). */
  async check(key: string): Promise<void> {
    if ((await this.used(key)) >= this.maxBytes) {
      throw new HttpError(413, `Upload quota reached: at most ${this.maxBytes} bytes per user in ${Math.round(this.windowMs / 3600_000)} hours`, {
        i18nMessage: 'error.uploadQuota',
      });
    }
  }

  add(key: string, bytes: number): Promise<void> {
    return this.ledger.record(key, bytes);
  }
}
