import type { ByteLedger, ReleaseSlot, SlotStore } from '../db/coordination/coordination.ts';
import { memoryLedger } from '../db/coordination/memory-ledger.ts';
import { memorySlots } from '../db/coordination/memory-slots.ts';
import { HttpError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';

/** Who a limit counts against: the signed-in user, or one shared bucket for callers without one. */
export function limitKey(context: RequestContext): string {
  return context.userId ?? '(no user)';
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
