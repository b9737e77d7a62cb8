import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../server/rag/parse/parse-file.ts';
import { tidyText, tidyTextYielding } from '../../../server/rag/parse/tidy-text.ts';
import { makePdf } from './fixtures/make-fixtures.ts';

/**
 * Document text never carries U+0000: PostgreSQL cannot store it, and parsed text becomes
 * knowledge ("Extract from source") and training data.
 */
describe('NUL characters in extracted text', () => {
  it('tidyText and tidyTextYielding drop them, short and long texts alike', async () => {
    expect(tidyText('a\u0000b \u0000 c\u0000')).toBe('ab c');
    const long = 'palabra \u0000 '.repeat(300_000);
    const tidied = await tidyTextYielding(long);
    expect(tidied.includes('\u0000')).toBe(false);
    expect(tidied).toBe(tidyText(long));
  });

  // pdf.js maps this code to a space; the check is that no path of parseDocument lets one through.
  it('a PDF whose text holds a NUL code reads without it', async () => {
    const parsed = await parseDocument(makePdf(['Hola\u0000mundo']));
    expect(parsed.content.includes('\u0000')).toBe(false);
    expect(parsed.content).toMatch(/^Hola.?mundo$/);
  });
});
