import { describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../../../server/entities/csv-formula-guard.ts';
import { detectSeparator } from '../../../server/entities/import-file-rows.ts';
import { createRng } from '../../helpers/prng.ts';

describe('guardFormula / unguardFormula', () => {
  it('neutralises every OWASP trigger, quotes and all, and leaves numbers and plain text alone', () => {
    // ' =1': a reader that trims cells would see the trigger first (issue 31).
    for (const text of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\tx', '\r', "'=1", "''@x", '-cmd', '- 1', ' =1', "'  @x"]) {
      expect(guardFormula(text), JSON.stringify(text)).toBe(`'${text}`);
    }
    // A tab or line break also starts a cell for some reader: what follows it is guarded too.
    for (const text of ['\t=1', '\r=1', '\n=1']) expect(guardFormula(text), JSON.stringify(text)).toBe(`'${text[0]}'=1`);
    for (const text of ['', 'plain', "'plain", "it's", '-1', '-12.5', '-1e3', '0', '[1]', '{"a":1}', 'a=b', 'a, b; c', 'x y']) {
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

/** Where a cell may start for a reader splitting on `separator` and ignoring quotes (the worst reader). */
const naiveCells = (text: string, separator: string) => text.split(new RegExp(`[${separator}\r\n]`));
/** A trigger, after what a reader may strip first: spaces and CSV quotes. */
const TRIGGER = /^[" ]*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A seeded generator (tests/helpers/prng.ts): the same cells on every run, and a failure names its seed. */
const random = (seed: number) => createRng(seed).next;
const HOSTILE = ["'", '=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', ' ', 'a', '1', '.', '|', "cmd|'/c calc'!A1", '=2+5+', 'Acme', '\r\n', 'ñ', '🚀'];
function hostileCell(next: () => number): string {
  let out = '';
  const length = Math.floor(next() * 12);
  for (let i = 0; i < length; i++) out += HOSTILE[Math.floor(next() * HOSTILE.length)];
  return out;
}

describe('a guarded cell, split by any reader', () => {
  it('never starts a piece with a trigger, on , ; or tab, nor after a line break (the red team\'s cell and its kin)', () => {
    const cases: [string, string][] = [
      ["Acme,=2+5+cmd|'/c calc'!A1", "Acme,'=2+5+cmd|'/c calc'!A1"],
      ['Acme;=2+5', "Acme;'=2+5"],
      ['Acme\t@SUM(1)', "Acme\t'@SUM(1)"],
      ['x,\t=1', "x,'\t'=1"],
      ['a\n-2+3', "a\n'-2+3"],
      ['a\r\n+1', "a\r\n'+1"],
      ['said "hi";\nthen\r\nleft', 'said "hi";\nthen\r\nleft'],
      ['a, =1', "a,' =1"],
      ['[1,-2]', "[1,'-2]"],
      ['=1,=2', "'=1,'=2"],
      ["a,'=1", "a,''=1"],
      ['a,b;c', 'a,b;c'],
      ['a;"=1', 'a;\'"=1'],
      ['"@x', '\'"@x'],
    ];
    for (const [text, guarded] of cases) {
      expect(guardFormula(text), JSON.stringify(text)).toBe(guarded);
      expect(unguardFormula(guarded)).toBe(text);
    }
  });

  it('holds for 20,000 seeded hostile cells: no reader sees a formula, and the import restores each exactly', () => {
    const seed = 31;
    const next = random(seed);
    for (let i = 0; i < 20_000; i++) {
      const text = hostileCell(next);
      const guarded = guardFormula(text);
      expect(unguardFormula(guarded), `seed ${seed}, cell ${i}: ${JSON.stringify(text)}`).toBe(text);
      for (const separator of [',', ';', '\t']) {
        for (const piece of naiveCells(guarded, separator)) {
          if (TRIGGER.test(piece) && !(piece === guarded && PLAIN_NUMBER.test(piece))) {
            throw new Error(`seed ${seed}, cell ${i}: ${JSON.stringify(text)} -> ${JSON.stringify(guarded)} gives a reader on ${JSON.stringify(separator)} the cell ${JSON.stringify(piece)}`);
          }
        }
      }
    }
  });

  it('is undone exactly for every string over the separators and triggers (exhaustive to length 4)', () => {
    const alphabet = ["'", '"', '=', '-', '\t', '\r', '\n', ',', ';', ' ', 'a', '1'];
    let checked = 0;
    const visit = (prefix: string, depth: number) => {
      expect(unguardFormula(guardFormula(prefix)), JSON.stringify(prefix)).toBe(prefix);
      checked++;
      if (depth > 0) for (const c of alphabet) visit(prefix + c, depth - 1);
    };
    visit('', 4);
    expect(checked).toBeGreaterThan(15_000);
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
