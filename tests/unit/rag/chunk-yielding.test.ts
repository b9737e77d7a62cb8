import { describe, expect, it } from 'vitest';
import { chunkText, chunkTextYielding, MAX_CHUNK_OUTPUT_CHARS, MAX_CHUNK_REQUEST_LENGTH, MAX_CHUNKS } from '../../../server/rag/chunk/chunk-text.ts';
import { recursiveCharacterSplit, recursiveCharacterSplitYielding } from '../../../server/rag/chunk/recursive-character-split.ts';
import { tidyText, tidyTextYielding } from '../../../server/rag/parse/tidy-text.ts';
import { RagError } from '../../../server/rag/rag-error.ts';

/** The yielding chunker (POST /api/rag/chunk) and tidier give exactly what the synchronous ones give. */
const words = ['pedido', 'envío', 'factura', 'ñandú', '😀', 'a'.repeat(700)];
function text(length: number, seed: number): string {
  let out = '';
  let n = seed;
  while (out.length < length) {
    n = (n * 1103515245 + 12345) % 2147483648;
    out += words[n % words.length] + [' ', ' ', '\n', '\n\n', '\t ', '  \r\n'][(n >> 8) % 6];
  }
  return out.slice(0, length);
}

describe('recursiveCharacterSplitYielding', () => {
  it.each([
    [512, 100], [100, 0], [2000, 1000], [50, 10], [7, 3], [1, 0],
  ])('chunkSize %i, chunkOverlap %i: chunk for chunk the synchronous split', async (size, overlap) => {
    for (const seed of [1, 2, 3]) {
      const input = text(size === 1 ? 5_000 : 200_000, seed);
      expect(await recursiveCharacterSplitYielding(input, size, overlap, { sliceMs: 1 })).toEqual(recursiveCharacterSplit(input, size, overlap));
    }
  });

  it('lets timers run while it works', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    await recursiveCharacterSplitYielding(text(1_000_000, 9), 100, 10, { sliceMs: 2 });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('chunkTextYielding limits', () => {
  const refused = async (promise: Promise<unknown>, field: string) => {
    const error = await promise.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RagError);
    expect((error as RagError).statusCode).toBe(413);
    expect((error as RagError).field).toBe(field);
  };

  it('same chunks as chunkText within the limits', async () => {
    const input = text(300_000, 4);
    expect(await chunkTextYielding(input, { chunkSize: 300, chunkOverlap: 30 })).toEqual(chunkText(input, { chunkSize: 300, chunkOverlap: 30 }));
  });

  it('refuses too long a text, too many chunks and too much repeated text', async () => {
    await refused(chunkTextYielding('x'.repeat(MAX_CHUNK_REQUEST_LENGTH + 1)), 'text');
    await refused(chunkTextYielding(text(MAX_CHUNKS + 10, 5), { chunkSize: 1, chunkOverlap: 0 }), 'chunkSize');
    await refused(chunkTextYielding(text(1_000_000, 6), { chunkSize: 10_000, chunkOverlap: 9_000 }), 'chunkOverlap');
    expect(MAX_CHUNK_OUTPUT_CHARS).toBeGreaterThan(MAX_CHUNK_REQUEST_LENGTH);
  });

  it('stops as soon as the real output passes a cap the estimate missed', async () => {
    // Words of 3 characters and chunkSize 3: the estimate (length / 3) is under the cap, but each
    // word and each space-led piece becomes a chunk of its own.
    const input = 'abc '.repeat(37_000);
    expect(Math.ceil(input.length / 3)).toBeLessThanOrEqual(MAX_CHUNKS);
    await refused(chunkTextYielding(input, { chunkSize: 3, chunkOverlap: 0 }), 'chunkSize');
  });
});

describe('tidyTextYielding', () => {
  it('gives what tidyText gives, across slice boundaries', async () => {
    for (const seed of [1, 2]) {
      const input = text(3_500_000, seed) + ' '.repeat(1_200_000) + '\n\n\n\nfin \r\n';
      expect(await tidyTextYielding(input)).toBe(tidyText(input));
    }
  });
});
