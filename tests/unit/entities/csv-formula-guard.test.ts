import { describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../../../server/entities/csv-formula-guard.ts';
import { detectSeparator } from '../../../server/entities/import-file-rows.ts';

describe('guardFormula / unguardFormula', () => {
  it('neutralises every OWASP trigger, quotes and all, and leaves numbers and plain text alone', () => {
    for (const text of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '\n=1', "'=1", "''@x", '-cmd', '- 1']) {
      expect(guardFormula(text), JSON.stringify(text)).toBe(`'${text}`);
    }
    for (const text of ['', 'plain', ' =1', "'plain", "it's", '-1', '-12.5', '-1e3', '0', '[1]', '{"a":1}', 'a=b']) {
      expect(guardFormula(text), JSON.stringify(text)).toBe(text);
    }
  });

  it('is undone exactly by the import for every string over the interesting alphabet', () => {
    const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', '\n', 'a', '1', ' ', '.'];
    let checked = 0;
    const visit = (prefix: string, depth: number) => {
      const guarded = guardFormula(prefix);
      expect(unguardFormula(guarded), JSON.stringify(prefix)).toBe(prefix);
      // What a spreadsheet sees never starts a formula, unless it is a plain number.
      if (/^[=+\-@\t\r\n]/.test(guarded)) expect(guarded).toMatch(/^-[\d.]/);
      checked++;
      if (depth > 0) for (const c of alphabet) visit(prefix + c, depth - 1);
    };
    visit('', 4);
    expect(checked).toBeGreaterThan(20_000);
  });
});

describe('detectSeparator', () => {
  it('picks the most frequent of ; , tab in the header line, outside quotes', () => {
    expect(detectSeparator(Buffer.from('a;b;c\n1,2,3,4,5\n'))).toBe(';');
    expect(detectSeparator(Buffer.from('\ufeffa,b,c\r\n'))).toBe(',');
    expect(detectSeparator(Buffer.from('a\tb\n'))).toBe('\t');
    expect(detectSeparator(Buffer.from('"a;b;c",d\n'))).toBe(',');
    expect(detectSeparator(Buffer.from('single\nx;y\n'))).toBe(';');
  });
});
