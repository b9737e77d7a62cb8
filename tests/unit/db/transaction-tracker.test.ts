import { describe, expect, it } from 'vitest';
import { TransactionTracker } from '../../../server/db/transaction-tracker.ts';

type Tx = { open: boolean; name: string };

describe('TransactionTracker', () => {
  it('follows a transaction through awaits, and only inside its run', async () => {
    const tracker = new TransactionTracker<Tx>();
    const tx = { open: true, name: 'a' };
    expect(tracker.current()).toBeUndefined();
    const seen = await tracker.run(tx, async () => {
      await new Promise((resolve) => setImmediate(resolve)); // across a macrotask, not only microtasks
      await Promise.resolve();
      return tracker.current();
    });
    expect(seen).toBe(tx);
    expect(tracker.current()).toBeUndefined();
  });

  it('keeps two concurrent transactions apart, and each one current until it ends', async () => {
    const tracker = new TransactionTracker<Tx>();
    const a = { open: true, name: 'a' };
    const b = { open: true, name: 'b' };
    let releaseA!: () => void;
    const aWaits = new Promise<void>((resolve) => (releaseA = resolve));
    const runA = tracker.run(a, async () => {
      await aWaits;
      return tracker.current()?.name;
    });
    // b starts and ends while a is still running: a must still find its own record afterwards.
    const seenB = await tracker.run(b, async () => {
      await Promise.resolve();
      return tracker.current()?.name;
    });
    releaseA();
    expect(seenB).toBe('b');
    expect(await runA).toBe('a');
    expect(tracker.current()).toBeUndefined();
  });

  it('works again after every transaction ended (the storage was switched off in between)', async () => {
    const tracker = new TransactionTracker<Tx>();
    await tracker.run({ open: true, name: 'first' }, async () => undefined);
    const second = { open: true, name: 'second' };
    expect(await tracker.run(second, async () => (await Promise.resolve(), tracker.current()))).toBe(second);
  });

  it('ends the run when the work throws', async () => {
    const tracker = new TransactionTracker<Tx>();
    await expect(tracker.run({ open: true, name: 'x' }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(tracker.current()).toBeUndefined();
  });
});
