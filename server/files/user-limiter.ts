import { HttpError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';

/** Who a limit counts against: the signed-in user, or one shared bucket for callers without one. */
export function limitKey(context: RequestContext): string {
  return context.userId ?? '(no user)';
}

/**
 * How many jobs of one kind (exports, imports, uploads) each user runs at once, in this process.
 * Each holds memory (an import file is parsed whole) or grows a file, so one user opening many
 * at once could exhaust either; a third concurrent one is a 429, not a queue.
 */
export class ConcurrencyLimit {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly what: string,
  ) {}

  /** Takes a slot for `key` or throws 429; call the returned function exactly once when done. */
  acquire(key: string): () => void {
    const now = this.running.get(key) ?? 0;
    if (now >= this.max) {
      throw new HttpError(429, `Too many ${this.what} running at once for this user (at most ${this.max}); wait for one to finish`, {
        i18nMessage: 'error.tooManyConcurrent',
      });
    }
    this.running.set(key, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left <= 0) this.running.delete(key);
      else this.running.set(key, left);
    };
  }
}

/**
 * Bytes one user may write in a rolling window (uploads: 1 GiB a day by default). In memory and
 * per process: with several instances each enforces its own budget (README.md "Scaling out").
 */
export class ByteBudget {
  private readonly spent = new Map<string, { at: number; bytes: number }[]>();

  constructor(
    private readonly maxBytes: number,
    private readonly windowMs: number,
  ) {}

  used(key: string, now = Date.now()): number {
    const entries = (this.spent.get(key) ?? []).filter((e) => now - e.at < this.windowMs);
    if (entries.length === 0) this.spent.delete(key);
    else this.spent.set(key, entries);
    return entries.reduce((sum, e) => sum + e.bytes, 0);
  }

  /** Throws 413 when `key` has used up its budget (a file already started may overshoot it once). */
  check(key: string): void {
    if (this.used(key) >= this.maxBytes) {
      throw new HttpError(413, `Upload quota reached: at most ${this.maxBytes} bytes per user in ${Math.round(this.windowMs / 3600_000)} hours`, {
        i18nMessage: 'error.uploadQuota',
      });
    }
  }

  add(key: string, bytes: number, now = Date.now()): void {
    const entries = this.spent.get(key) ?? [];
    entries.push({ at: now, bytes });
    this.spent.set(key, entries);
  }
}
