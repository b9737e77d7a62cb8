import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../server/http/http-error.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { CpuPool, CpuTaskError, cpuPool } from '../../../server/workers/run-cpu-task.ts';

/**
 * The worker pool (server/workers/run-cpu-task.ts): a refusal computed in a worker comes back as
 * the same error class, and a worker that dies, runs out of heap, runs too long or finds the queue
 * full is a CpuTaskError naming why, which callers word as their own clear error.
 */
const fixture = fileURLToPath(new URL('./fixtures/misbehaving-worker.mjs', import.meta.url));
const pools: CpuPool[] = [];
const poolWith = (options: ConstructorParameters<typeof CpuPool>[0]) => {
  const pool = new CpuPool({ filename: fixture, ...options });
  pools.push(pool);
  return pool;
};
// The fixture takes any name; the pool's types only know the real tasks.
const run = (pool: CpuPool, name: string, input: unknown = null) => pool.run(name as 'markup', input as never);

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

describe('CpuPool', () => {
  it('rethrows a RagError or HttpError computed in the worker as that class, with its code and field', async () => {
    const pool = poolWith({});
    const rag = await run(pool, 'rag').catch((error: unknown) => error);
    expect(rag).toBeInstanceOf(RagError);
    expect(rag).toMatchObject({ code: 'unreadableFile', statusCode: 422, field: 'filepath', message: 'The HTML document could not be read: bad' });
    const http = await run(pool, 'refuse').catch((error: unknown) => error);
    expect(http).toBeInstanceOf(HttpError);
    expect(http).toMatchObject({ statusCode: 400, message: 'The CSV file could not be read: bad' });
  }, 60_000);

  it('a worker that exits or throws is `crashed`, and the pool goes on with a new worker', async () => {
    const pool = poolWith({ maxThreads: 1 });
    await expect(run(pool, 'exit')).rejects.toMatchObject({ name: 'CpuTaskError', reason: 'crashed', message: expect.stringContaining('the worker stopped') });
    await expect(run(pool, 'throw')).rejects.toMatchObject({ reason: 'crashed', message: expect.stringContaining('a bug in the task') });
    await expect(run(pool, 'sleep', 1)).resolves.toBe(1);
  }, 60_000);

  it('a worker past its heap limit is `outOfMemory`, naming the limit', async () => {
    const pool = poolWith({ heapMb: 32 });
    const error = await run(pool, 'hog').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CpuTaskError);
    expect(error).toMatchObject({ reason: 'outOfMemory', message: 'it needs more than 32 MB of memory' });
  }, 60_000);

  it('a task past its time is stopped: `timeout`', async () => {
    const pool = poolWith({ timeoutMs: 300 });
    await expect(run(pool, 'spin')).rejects.toMatchObject({ reason: 'timeout', message: 'the work did not finish within 0.3 s' });
  }, 60_000);

  it('past the bounded queue a task is refused at once as `busy`; the others run', async () => {
    const pool = poolWith({ maxThreads: 1, maxQueue: 1 });
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => run(pool, 'sleep', 200 + i)));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toMatchObject({ name: 'CpuTaskError', reason: 'busy' });
    const done = outcomes.filter((o) => o.status === 'fulfilled');
    expect(done.length).toBeGreaterThan(0);
  }, 60_000);

  it('the real pool parses markup and reads import rows from the TypeScript sources (tsx in the worker)', async () => {
    const text = await cpuPool().run('markup', { type: 'markdown', bytes: new TextEncoder().encode('# Título\n\nTexto **fuerte**.') });
    expect(text).toBe('Título\n\nTexto fuerte.');
    const rows = await cpuPool().run('csvRows', { content: new TextEncoder().encode('a;b\n1;2\n3;4\n'), delimiter: ';', maxRows: 10, rowsPerSlice: 1 });
    expect(rows).toEqual({ total: 2, slices: ['[{"a":"1","b":"2"}]', '[{"a":"3","b":"4"}]'] });
  }, 120_000);
});
