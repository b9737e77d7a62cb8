/**
 * The one way a test waits: for a state, never for a length of time (docs/testing.md). Reads
 * `read` again and again until `ok` holds of what it returns, and returns that. Fails naming
 * `what` after `tries` reads `everyMs` apart. `read` may be synchronous.
 */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, poll: { tries?: number; everyMs?: number } = {}): Promise<T> {
  const { tries = 400, everyMs = 50 } = poll;
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`Timed out waiting for ${what} (${tries} reads ${everyMs} ms apart)`);
}

/**
 * Returns once the wall clock shows a later millisecond than when it was called: records written
 * after it get a later `updatedAt` than records written before (timestamps have millisecond
 * resolution), without guessing a sleep long enough.
 */
export async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await until(() => Date.now(), (later) => later > now, 'the clock to move on by a millisecond', { tries: 10_000, everyMs: 1 });
}
