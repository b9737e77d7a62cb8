import { afterAll, describe, expect, it, vi } from 'vitest';
import { chunkOffThread, MAIN_THREAD_CHUNK_CHARS } from '../../../server/rag/chunk/chunk-off-thread.ts';
import { chunkText } from '../../../server/rag/chunk/chunk-text.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { planTraining } from '../../../server/rag/train/plan-training.ts';
import { cpuPool } from '../../../server/workers/run-cpu-task.ts';

/**
 * Training chunks long texts in the worker pool's `chunk` task (server/rag/chunk/chunk-off-thread.ts)
 * so the event loop stays free; the chunks must be exactly chunkText's, in order, hash for hash.
 */
afterAll(async () => {
  await cpuPool().close();
});

/** Paragraphs, lines, words and accents of varied lengths, so every split level is used. */
function longText(characters: number): string {
  const words = ['horario', 'de', 'atención', 'lunes', 'a', 'viernes', 'precios', 'envíos', 'devolución', 'garantía', 'año', 'pedido'];
  let text = '';
  for (let i = 0; text.length < characters; i++) {
    text += words[(i * 7) % words.length];
    text += i % 97 === 0 ? '\n\n' : i % 23 === 0 ? '\n' : i % 11 === 0 ? '. ' : ' ';
  }
  return text;
}

describe('chunking in the worker pool', () => {
  it('gives the same chunks as chunkText for a long text, and runs in the pool', async () => {
    const text = longText(400_000);
    const run = vi.spyOn(cpuPool(), 'run');
    for (const options of [{}, { chunkSize: 300, chunkOverlap: 40 }, { chunkSize: 2000, chunkOverlap: 0 }]) {
      const pooled = await chunkOffThread(text, options);
      expect(pooled.length).toBeGreaterThan(100);
      expect(pooled).toEqual(chunkText(text, options));
    }
    expect(run).toHaveBeenCalledTimes(3);
    expect(run.mock.calls.every(([name]) => name === 'chunk')).toBe(true);
    run.mockRestore();
  }, 120_000);

  it('a short text is chunked where it is (no round trip), with the same result', async () => {
    const text = longText(MAIN_THREAD_CHUNK_CHARS - 10);
    const run = vi.spyOn(cpuPool(), 'run');
    expect(await chunkOffThread(text)).toEqual(chunkText(text));
    expect(run).not.toHaveBeenCalled();
    run.mockRestore();
  });

  it('bad settings are the RagError chunkText throws, naming the field', async () => {
    const text = longText(MAIN_THREAD_CHUNK_CHARS * 2);
    const error = await chunkOffThread(text, { chunkSize: 100, chunkOverlap: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RagError);
    expect(error).toMatchObject({ code: 'invalidInput', field: 'chunkOverlap' });
  });

  it('planTraining chunks a long source text and knowledge text through the pool, as chunkText would', async () => {
    const first = longText(150_000);
    const second = longText(90_000).toUpperCase();
    const plan = await planTraining(
      { texts: [{ title: 'Manual', content: second }] },
      [{ _id: 's1', name: 'FAQ', type: 'text', text: first }],
      { parseFile: async () => '', parseUrl: async () => '', chunkOptions: { chunkSize: 400, chunkOverlap: 60 } },
    );
    const expected = [
      ...chunkText(first, { chunkSize: 400, chunkOverlap: 60 }).map((c) => ({ content: c.content, hash: c.hash, source: 'FAQ' })),
      ...chunkText(second, { chunkSize: 400, chunkOverlap: 60 }).map((c) => ({ content: c.content, hash: c.hash, source: 'Manual' })),
    ];
    expect(plan.chunks).toEqual(expected);
    expect(plan.problems).toEqual([]);
  }, 120_000);
});
