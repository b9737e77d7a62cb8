import { describe, expect, it } from 'vitest';
import { extractInWorker, MAX_PARSE_WORKERS } from '../../../server/rag/parse/parse-in-worker.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { until } from '../../helpers/until.ts';

/**
 * The decompression check runs inside the worker slot: however many documents arrive together,
 * at most MAX_PARSE_WORKERS are being inflated for checking (or read) at once.
 */
describe('extractInWorker runs its check inside the slot', () => {
  it(`at most ${MAX_PARSE_WORKERS} checks run at once; a refused check frees its slot`, async () => {
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const check = (index: number) => async () => {
      started.push(index);
      active += 1;
      peak = Math.max(peak, active);
      await new Promise<void>((resolve) => releases.push(resolve));
      active -= 1;
      throw new RagError('archiveBomb', `refused ${index}`);
    };
    const jobs = Array.from({ length: MAX_PARSE_WORKERS + 3 }, (_, index) =>
      extractInWorker('pdf', new Uint8Array(8), check(index)).then(
        () => 'read',
        (error: RagError) => error.message,
      ),
    );
    await until(() => started.length, (n) => n >= MAX_PARSE_WORKERS, 'the first checks to start', { everyMs: 5 });
    expect(started).toEqual(Array.from({ length: MAX_PARSE_WORKERS }, (_, index) => index));
    // Each refused check frees one slot, and the next waiting document takes it.
    for (let next = MAX_PARSE_WORKERS; next < jobs.length; next++) {
      releases.shift()!();
      await until(() => started.length, (n) => n > next, `check ${next} to start`, { everyMs: 5 });
    }
    while (releases.length > 0) releases.shift()!();
    expect(await Promise.all(jobs)).toEqual(jobs.map((_, index) => `refused ${index}`));
    expect(peak).toBe(MAX_PARSE_WORKERS);
  });
});
