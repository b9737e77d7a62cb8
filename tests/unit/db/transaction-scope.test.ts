import { describe, expect, it } from 'vitest';
import { TransactionScope } from '../../../server/db/transaction-scope.ts';

type Tx = { open: boolean; name: string };

describe('TransactionScope', () => {
  it('follows a transaction through awaits, and only inside its run', async () => {
    const scope = new TransactionScope<Tx>();
    const tx = { open: true, name: 'a' };
    expect(scope.current()).toBeUndefined();
    const seen = await scope.run(tx, async () => {
      await new Promise((resolve) => setImmediate(resolve)); // across a macrotask, not only microtasks
      await Promise.resolve();
      return scope.current();
    });
    expect(seen).toBe(tx);
    expect(scope.current()).toBeUndefined();
  });

  it('keeps two concurrent transactions apart, and each one current until it ends', async () => {
    const scope = new TransactionScope<Tx>();
    const a = { open: true, name: 'a' };
    const b = { open: true, name: 'b' };
    let releaseA!: () => void;
    const aWaits = new Promise<void>((resolve) => (releaseA = resolve));
    const runA = scope.run(a, async () => {
      await aWaits;
      return scope.current()?.name;
    });
    // b starts and ends while a is still running: a must still find its own record afterwards.
    const seenB = await scope.run(b, async () => {
      await Promise.resolve();
      return scope.current()?.name;
    });
    releaseA();
    expect(seenB).toBe('b');
    expect(await runA).toBe('a');
    expect(scope.current()).toBeUndefined();
  });

  it('works again after every transaction ended (the storage was switched off in between)', async () => {
    const scope = new TransactionScope<Tx>();
    await scope.run({ open: true, name: 'first' }, async () => undefined);
    const second = { open: true, name: 'second' };
    expect(await scope.run(second, async () => (await Promise.resolve(), scope.current()))).toBe(second);
  });

  it('ends the run when the work throws', async () => {
    const scope = new TransactionScope<Tx>();
    await expect(scope.run({ open: true, name: 'x' }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(scope.current()).toBeUndefined();
  });
});
