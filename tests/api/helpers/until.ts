/**
 * Reads `read` again and again until `ok` holds of what it returns, and returns that: a test waits
 * for a state (a job running, a lease gone), never for a length of time. Fails naming `what` after
 * `tries` reads `everyMs` apart.
 */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, poll: { tries?: number; everyMs?: number } = {}): Promise<T> {
  const { tries = 400, everyMs = 50 } = poll;
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`Timed out waiting for ${what} (${tries} reads ${everyMs} ms apart)`);
}
