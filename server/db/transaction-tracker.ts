import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The open transaction of an async call chain (Database.transaction), followed with
 * AsyncLocalStorage while at least one transaction runs, and switched off in between.
 *
 * Why switched off: on Node 20 AsyncLocalStorage rides on async_hooks, and once any run() has
 * happened every promise in the process pays for a hook (an await about 3x slower in a micro
 * benchmark; about 10% fewer requests per second on reads that never open a transaction, by
 * `npm run bench:api`). disable() takes the hook out again when no transaction is running.
 * A continuation of a finished transaction may still find its (closed) record afterwards: callers
 * check `open`, as they must anyway for work that outlives its transaction.
 */
export class TransactionTracker<T extends { open: boolean }> {
  readonly #storage = new AsyncLocalStorage<T>();
  #running = 0;

  /** The transaction of this call chain, if any (possibly one that has ended: check `open`). */
  current(): T | undefined {
    return this.#running > 0 ? this.#storage.getStore() : undefined;
  }

  /** Runs `work` with `transaction` as this call chain's current one. */
  async run<R>(transaction: T, work: () => Promise<R>): Promise<R> {
    this.#running++;
    try {
      return await this.#storage.run(transaction, work);
    } finally {
      if (--this.#running === 0) this.#storage.disable();
    }
  }
}
