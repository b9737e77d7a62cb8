/**
 * Serialises work per key within this process: two messages to one conversation must not both
 * read the chats, append, and write (the second write would drop the first exchange). With several
 * API instances the same visitor's requests normally reach one of them only one at a time (the
 * chat window waits for each answer); a shared database lock would be the next step if not.
 */
export class KeyedLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
