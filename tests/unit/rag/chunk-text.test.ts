import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { chunkText } from '../../../server/rag/chunk/chunk-text.ts';
import { recursiveCharacterSplit } from '../../../server/rag/chunk/recursive-character-split.ts';
import { RagError } from '../../../server/rag/rag-error.ts';

// The reference implementation warns on every oversized piece; the noise says nothing here.
beforeAll(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

async function reference(text: string, chunkSize: number, chunkOverlap: number): Promise<string[]> {
  return new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap }).splitText(text);
}

const SPANISH =
  'La política de devoluciones permite devolver cualquier artículo en 30 días.\n\n' +
  'Información útil: el envío es gratuito a partir de 50 €. ¿Necesitas más ayuda? ¡Escríbenos!\n' +
  'Año tras año mejoramos la atención al cliente; pingüino, corazón, acción y canción.\n\n\n' +
  'Último párrafo con eñes: niño, señal, España.';

const CASES: Array<[string, string]> = [
  ['spanish with accents', SPANISH],
  ['very long words', `corto ${'a'.repeat(1500)} medio ${'b'.repeat(70)} fin`],
  ['empty', ''],
  ['only separators', '\n\n\n \n  \n\n   '],
  ['crlf newlines', 'Primera línea\r\nSegunda línea\r\n\r\nTercer párrafo con más texto\r\nfin'],
  ['single word', 'hola'],
  ['emoji and astral', 'Gracias 😀😀😀 por tu compra 👍 '.repeat(20)],
  ['tabs and spaces', 'uno\tdos\t\ttres   cuatro     cinco\n\n\n\nseis'],
  ['long paragraph', 'palabra '.repeat(400)],
];

const SETTINGS: Array<[number, number]> = [
  [512, 100],
  [1000, 100],
  [10, 0],
  [10, 9],
  [50, 10],
  [1, 0],
  [7, 3],
];

describe('recursiveCharacterSplit matches @langchain/textsplitters', () => {
  for (const [name, text] of CASES) {
    for (const [size, overlap] of SETTINGS) {
      it(`${name} (size ${size}, overlap ${overlap})`, async () => {
        expect(recursiveCharacterSplit(text, size, overlap)).toEqual(await reference(text, size, overlap));
      });
    }
  }

  it('random texts built from separators, accents and long runs', async () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ['\n\n', '\n', ' ', '  ', 'a', 'é', 'ñ', 'palabra', 'información', '.', '\r\n', 'x'.repeat(40), '😀'];
    for (let round = 0; round < 150; round += 1) {
      let text = '';
      const length = Math.floor(random() * 120);
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(random() * alphabet.length)];
      const size = 1 + Math.floor(random() * 60);
      const overlap = Math.floor(random() * size);
      expect(recursiveCharacterSplit(text, size, overlap), JSON.stringify({ text, size, overlap })).toEqual(
        await reference(text, size, overlap),
      );
    }
  });
});

describe('chunkText', () => {
  it('defaults to 512/100 and keys each chunk by the sha256 of its content', async () => {
    const text = `${SPANISH}\n\n`.repeat(10);
    const chunks = chunkText(text);
    expect(chunks.map((c) => c.content)).toEqual(await reference(text, 512, 100));
    for (const chunk of chunks) {
      expect(chunk.hash).toBe(createHash('sha256').update(chunk.content, 'utf8').digest('hex'));
      expect(chunk.category).toBe('');
      expect(chunk.tags).toEqual([]);
    }
  });

  it('returns no chunks for empty or blank text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\n \r\n ')).toEqual([]);
  });

  it.each([
    [{ chunkSize: 100, chunkOverlap: 100 }, 'chunkOverlap'],
    [{ chunkSize: 100, chunkOverlap: 150 }, 'chunkOverlap'],
    [{ chunkSize: 0 }, 'chunkSize'],
    [{ chunkSize: 100_001 }, 'chunkSize'],
    [{ chunkSize: 10.5 }, 'chunkSize'],
    [{ chunkSize: Number.NaN }, 'chunkSize'],
    [{ chunkOverlap: -1 }, 'chunkOverlap'],
    [{ chunkSize: 200, chunkOverlap: 1.5 }, 'chunkOverlap'],
  ])('rejects %o with a 400 naming %s', (options, field) => {
    try {
      chunkText('hola', options);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RagError);
      expect((error as RagError).statusCode).toBe(400);
      expect((error as RagError).field).toBe(field);
      expect((error as RagError).toBody().i18nMessage).toBe('error.rag.invalidInput');
    }
  });

  it('says clearly that overlap must be smaller than size', () => {
    expect(() => chunkText('hola', { chunkSize: 10, chunkOverlap: 10 })).toThrow(/chunkOverlap \(10\) must be smaller than chunkSize \(10\)/);
  });

  it('rejects non-string text and text over the length cap', () => {
    expect(() => chunkText(42)).toThrow(RagError);
    expect(() => chunkText('x'.repeat(20 * 1024 * 1024 + 1))).toThrow(/limit/);
  });
});
