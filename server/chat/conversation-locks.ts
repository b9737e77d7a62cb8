import { HttpError } from '../http/http-error.ts';
import type { SharedLocksAndCounters } from '../db/coordination/coordination.ts';

/** Longest a message waits for another instance to finish answering the same conversation. */
export const SHARED_LOCK_WAIT_MS = 120_000;
const POLL_FIRST_MS = 25;
const POLL_MAX_MS = 250;

/**
 * Serialises work per key: two messages to one conversation must not both read the chats, append,
 * and write (the second write would drop the first exchange). Within this process they queue in
 * memory; with `coordination` (PostgreSQL or Redis, server/db/coordination) the head of the queue
 * also takes a lock every instance respects, waiting (polling) while another instance holds it, so
 * two instances behind a balancer answer one conversation one message at a time as one instance
 * does. A message that waits longer than SHARED_LOCK_WAIT_MS is a 409.
 */
export class KeyedLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly coordination: Pick<SharedLocksAndCounters, 'tryLock'> | null = null,
    private readonly waitMs = SHARED_LOCK_WAIT_MS,
  ) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const guarded = this.coordination ? () => this.#shared(key, work) : work;
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(guarded, guarded);
    const tail = current.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  async #shared<T>(key: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    let pause = POLL_FIRST_MS;
    for (;;) {
      const release = await this.coordination!.tryLock(key);
      if (release) {
        try {
          return await work();
        } finally {
          await release();
        }
      }
      if (Date.now() + pause > deadline) {
        throw new HttpError(409, 'Another message of this conversation is still being answered; send yours when it is done', {
          i18nMessage: 'error.conversationBusy',
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
  }
}
