// Issue 31 item 2: a CSV export is safe in a spreadsheet whatever separator the reader guesses.
// Every cell holding `,`, `;`, tab, a quote or a line break is quoted, whatever the file's
// separator; and no reader, splitting on `,`, `;` or tab (even one that ignores quotes), sees a
// cell starting with a formula trigger (csv-formula-guard.ts). Seeded hostile cells are exported
// with each separator, read back with each, and imported back exactly. Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { unguardFormula } from '../../server/entities/csv-formula-guard.ts';
import { createRng } from '../helpers/prng.ts';

let server: TestServer;
const BASE = '/api/bot-trace-statuses';
const SEPARATORS = [';', ',', '\t'];
/** A trigger, after what a reader may strip first: spaces and CSV quotes. */
const TRIGGER = /^[" ]*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A seeded generator (tests/helpers/prng.ts): the same cells on every run, and a failure names its seed. */
const random = (seed: number) => createRng(seed).next;
const PARTS = ["'", '=', '+', '-', '@', '\t', '\r\n', '\n', ',', ';', '"', ' ', 'a', '1', "cmd|'/c calc'!A1", '=2+5+', 'Acme', 'ñ'];
function hostile(next: () => number): string {
  let out = '';
  const length = 1 + Math.floor(next() * 8);
  for (let i = 0; i < length; i++) out += PARTS[Math.floor(next() * PARTS.length)];
  return out;
}

const SEED = 3101;
const next = random(SEED);
const CELLS = [
  "Acme,=2+5+cmd|'/c calc'!A1", "Acme;=2+5+cmd|'/c calc'!A1", "Acme\t@SUM(1)", 'x,\t=1', 'line\n-2+3', 'a, =1',
  '=1,=2;=3\t=4', '-12.5', '"quoted", =1', ...Array.from({ length: 50 }, () => hostile(next)),
];
/** name is unique and required: the hostile cell, then its index. description: the cell alone. */
const records = CELLS.map((cell, i) => ({ name: `${cell}#${i}`, description: cell }));

async function exportText(separator: string): Promise<string> {
  const res = await server.get(`${BASE}/export${qs({ format: 'CSV', separator, headers: 'name,description', limit: 0 })}`);
  expect(res.status, res.text).toBe(200);
  const file = await fetch(server.baseUrl + res.body.url);
  expect(file.status).toBe(200);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer());
}

async function stored(): Promise<{ name: string; description: string }[]> {
  const items = (await server.get(`${BASE}?limit=1000`)).body.items as { name: string; description?: string | null }[];
  return items.map((r) => ({ name: r.name, description: r.description ?? '' })).sort((a, b) => (a.name < b.name ? -1 : 1));
}

beforeAll(async () => {
  server = await startTestServer();
  // Only the hostile records: the seeded statuses are unused in a fresh server.
  for (const status of (await server.get(`${BASE}?limit=100`)).body.items) expect((await server.del(`${BASE}/${status._id}`)).status).toBe(204);
  for (const record of records) {
    const res = await server.post(BASE, record);
    expect(res.status, `${JSON.stringify(record)}: ${res.text}`).toBe(201);
  }
});
afterAll(async () => server.close());

describe('CSV exports are spreadsheet-safe by construction', () => {
  it(`no reader splitting on , ; or tab (quote-aware or not) sees a cell starting a formula (seed ${SEED})`, async () => {
    for (const separator of SEPARATORS) {
      const text = await exportText(separator);
      for (const reader of SEPARATORS) {
        // The worst reader: splits on its separator and line breaks, ignoring quotes, and drops
        // the quotes and spaces before what it cut (TRIGGER allows for them).
        for (const piece of text.split(new RegExp(`[${reader}\\r\\n]`))) {
          if (TRIGGER.test(piece) && !PLAIN_NUMBER.test(piece)) {
            throw new Error(`file separator ${JSON.stringify(separator)}, reader ${JSON.stringify(reader)}: cell ${JSON.stringify(piece)}`);
          }
        }
        // A quote-aware reader with another separator than the file's: every cell holding any
        // separator is quoted, so each record stays whole or splits only where the file did.
        if (reader !== separator) {
          const rows = parse(text, { bom: true, delimiter: reader, relax_column_count: true, relax_quotes: true }) as string[][];
          // It may cut records oddly (a quote it did not expect), but no cell it makes holds a
          // formula trigger after whatever white space or quotes a spreadsheet might strip first.
          for (const cell of rows.flat()) expect(/^[\s"]*[=+\-@]/.test(cell) && !PLAIN_NUMBER.test(cell.trim()), JSON.stringify(cell)).toBe(false);
        }
      }
      // Read as written, every cell is the stored text once the guard is undone.
      const rows = parse(text, { bom: true, delimiter: separator, columns: true }) as { name: string; description: string }[];
      const read = rows.map((r) => ({ name: unguardFormula(r.name), description: unguardFormula(r.description) })).sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(read).toEqual(await stored());
    }
  });

  it('every cell with a separator of any kind, a quote or a line break is quoted, whatever the file\'s separator', async () => {
    for (const separator of SEPARATORS) {
      const text = await exportText(separator);
      expect(text, JSON.stringify(separator)).toContain(`"Acme,'=2+5+cmd|'/c calc'!A1#0"${separator}"Acme,'=2+5+cmd|'/c calc'!A1"`);
      expect(text).toContain(`"Acme;'=2+5+cmd|'/c calc'!A1#1"${separator}"Acme;'=2+5+cmd|'/c calc'!A1"`);
      expect(text).toContain(`"Acme\t'@SUM(1)#2"${separator}"Acme\t'@SUM(1)"`);
      expect(text).toContain(`-12.5#7${separator}-12.5\r\n`);
    }
  });

  it('imports back exactly, with each separator (the import undoes the guard)', async () => {
    const before = await stored();
    for (const separator of SEPARATORS) {
      const text = await exportText(separator);
      for (const status of (await server.get(`${BASE}?limit=1000`)).body.items) expect((await server.del(`${BASE}/${status._id}`)).status).toBe(204);
      const imported = await server.upload(`${BASE}/import${qs({ format: 'CSV', separator })}`, { name: 'statuses.csv', content: text });
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.created).toBe(records.length);
      expect(await stored(), JSON.stringify(separator)).toEqual(before);
    }
  });
});
