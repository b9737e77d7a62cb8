import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TextFileWriter } from '../../../server/entities/text-file-writer.ts';
import { createRng } from '../../helpers/prng.ts';

const dirs: string[] = [];
const fileIn = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-text-writer-'));
  dirs.push(dir);
  return path.join(dir, 'out.csv');
};
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('TextFileWriter (server/entities/text-file-writer.ts)', () => {
  // Chunks small and large, around the 1 MiB flush, with 1-, 2-, 3- and 4-byte UTF-8 characters
  // (a surrogate pair is 2 UTF-16 units for 4 bytes): the file is the text, byte for byte.
  it.each([
    ['many small chunks', 5000, 200],
    ['chunks near the flush size', 12, 400_000],
    ['one chunk larger than both buffers', 1, 3_000_000],
    ['mixed sizes', 300, 0],
  ])('writes %s exactly, in order', async (_name, count, size) => {
    const rng = createRng(count * 7 + size);
    const alphabet = ['a', ';', '\n', 'é', 'ñ', '€', '中', '😀', '"'];
    const chunks = Array.from({ length: count }, () => {
      const length = size || rng.int(20_000);
      let text = '';
      while (text.length < length) text += rng.pick(alphabet);
      return text;
    });
    const file = fileIn();
    const out = await TextFileWriter.create(file);
    for (const chunk of chunks) await out.write(chunk);
    const expected = Buffer.from(chunks.join(''), 'utf8');
    expect(out.bytesWritten).toBe(expected.length);
    await out.close();
    expect(fs.readFileSync(file).equals(expected)).toBe(true);
  });

  it('refuses a file that already exists (an export never overwrites one)', async () => {
    const file = fileIn();
    fs.writeFileSync(file, 'kept');
    await expect(TextFileWriter.create(file)).rejects.toThrow(/EEXIST/);
    expect(fs.readFileSync(file, 'utf8')).toBe('kept');
  });

  // A disk error on a write that runs while the caller goes on is not lost: the next write or
  // the close throws it (here the file is on /dev/full, which refuses every write with ENOSPC).
  it.runIf(fs.existsSync('/dev/full'))('throws a failed background write at the next write or at close', async () => {
    // create() opens with 'wx' (an export never overwrites), which /dev/full refuses: the same writer on a handle opened for writing.
    const writer = Reflect.construct(TextFileWriter, [await fs.promises.open('/dev/full', 'w')]) as TextFileWriter;
    const attempt = (async () => {
      for (let i = 0; i < 10; i++) await writer.write('x'.repeat(700_000));
      await writer.close();
    })();
    await expect(attempt).rejects.toThrow(/ENOSPC/);
  });
});
