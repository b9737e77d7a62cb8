import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge, traceFixtures } from './helpers/fixtures.ts';
import { guardFormula } from '../../server/entities/csv-formula-guard.ts';

/**
 * Issue 15 item 7 and issue 16 "Exports": whatever the console exports (CSV with `;` or `,`, or
 * JSON) imports back to the same data, formula-like text included; refs travel as display values
 * (CSV) or populated objects (JSON) and are resolved back, or refused by row and column.
 */
let server: TestServer;
let fx: Awaited<ReturnType<typeof traceFixtures>>;

/** Text a spreadsheet would run, and text that merely looks like the guard: all must survive. */
const TRICKY = ['=1+1', '+SUM(A1)', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1)', '\t=1', '\r=1', "'=already quoted", "''=two quotes", "'plain quote", 'a "quoted";, text\nwith lines', 'ñandú 🚀'];
const SYSTEM = new Set(['_id', 'createdAt', 'updatedAt']);

beforeAll(async () => {
  server = await startTestServer();
  fx = await traceFixtures(server);
});
afterAll(async () => server.close());

async function exportText(base: string, params: Record<string, string | number>): Promise<string> {
  const res = await server.get(`${base}/export${qs(params)}`);
  expect(res.status, res.text).toBe(200);
  const file = await fetch(server.baseUrl + res.body.url);
  expect(file.status).toBe(200);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer());
}

/** The rows of an export without the columns the import cannot keep (ids, timestamps). */
function comparable(text: string, format: 'CSV' | 'JSON', separator = ';'): Record<string, unknown>[] {
  const rows = format === 'CSV' ? (parse(text, { bom: true, delimiter: separator, columns: true }) as Record<string, unknown>[]) : (JSON.parse(text) as Record<string, unknown>[]);
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      if (SYSTEM.has(key)) continue;
      // Populated refs ({ _id, name }) compare by what they show: the import makes new ids.
      out[key] = format === 'JSON' ? stripIds(value) : value;
    }
    return out;
  });
}

function stripIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== '_id').map(([k, v]) => [k, stripIds(v)]));
  return value;
}

async function ids(base: string): Promise<string[]> {
  return ((await server.get(`${base}/find?limit=1000`)).body as { _id: string }[]).map((r) => r._id);
}

/**
 * Exports `filters` of `base`, imports the file back, exports the new records (everything not in
 * `before`) the same way and expects the same rows.
 */
async function roundTrip(base: string, filters: string, format: 'CSV' | 'JSON', separator: string, prepare?: () => Promise<void>) {
  const params = { format, separator, filters, orderBy: 'createdAt', order: 'asc' };
  const first = await exportText(base, params);
  const before = await ids(base);
  await prepare?.();
  const name = format === 'CSV' ? 'rows.csv' : 'rows.json';
  // No separator given: the import detects it from the header line.
  const imported = await server.upload(`${base}/import`, { name, content: first });
  expect(imported.status, imported.text).toBe(200);
  const rows = comparable(first, format, separator);
  expect(imported.body).toMatchObject({ invalid: 0, created: rows.length, errors: [] });
  const fresh = (await ids(base)).filter((id) => !before.includes(id));
  expect(fresh).toHaveLength(rows.length);
  const second = await exportText(base, { ...params, filters: `_id;in;${fresh.join(',')}` });
  expect(comparable(second, format, separator)).toEqual(rows);
  return { first, second, rows };
}

describe('every importable entity round-trips through its exports', () => {
  it('bot traces: refs by display value, formula-like text, numbers, JSON cells', async () => {
    const made: string[] = [];
    for (const [index, text] of TRICKY.entries()) {
      made.push((await create(server, '/api/bot-traces', {
        status: index % 2 ? fx.ok._id : fx.failed._id, bot: fx.bot._id, chatId: `rt-${index}`, userMessage: text, assistantMessage: text,
        tokens: index, latency: index * 10, knowledgeBase: [{ source: text, hash: 'h', content: 'c' }], reaction: index % 3 ? 'Love' : undefined,
      }))._id);
    }
    for (const [format, separator] of [['CSV', ';'], ['CSV', ','], ['JSON', ';']] as const) {
      const { first, rows } = await roundTrip('/api/bot-traces', `_id;in;${made.join(',')}`, format, separator);
      expect(rows).toHaveLength(TRICKY.length);
      if (format === 'CSV') {
        // Neutralised in the file, restored by the import.
        expect(first).toContain(`${separator}'=1+1${separator}`);
        expect(first).not.toMatch(new RegExp(`(^|[${separator}\\n])[=+@-]`));
        // A quote before a trigger at the start, and after a tab or CR that starts a cell for a
        // reader splitting on it (issue 31: csv-formula-guard.ts).
        expect(rows.map((r) => r.userMessage)).toEqual(TRICKY.map(guardFormula));
        expect(rows.map((r) => r.userMessage)).toEqual(expect.arrayContaining(["'=1+1", "'\t'=1", "'\r'=1", "'''=two quotes"]));
      }
    }
    const stored = (await server.get(`/api/bot-traces/find${qs({ filters: 'chatId;eq;rt-0', orderBy: 'createdAt' })}`)).body;
    // The original and one copy per format, every one with the exact text.
    expect(stored).toHaveLength(4);
    for (const record of stored) expect(record).toMatchObject({ userMessage: TRICKY[0], status: { name: 'failed' }, bot: { name: 'Traced' }, tokens: 0 });
  });

  it('bots (ref to knowledge by name, string lists), contacts and knowledge (array.ref sources, owner)', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('=KB round'));
    await create(server, '/api/bots', minimalBot('rt-bot =1', { knowledge: knowledge._id, questions: ['=q1', 'q;2', '@q3'], systemPrompt: '-Prompt {{botName}}' }));
    await create(server, '/api/bots', minimalBot('rt-bot plain', { description: '+desc' }));
    for (const [format, separator] of [['CSV', ';'], ['CSV', ','], ['JSON', ';']] as const) {
      await roundTrip('/api/bots', 'name;like;rt-bot', format, separator);
    }
    const contact = await create(server, '/api/contacts', { name: '@contact', email: 'c@example.com', memory: [{ attribute: '=k', content: '-v' }] });
    for (const [format, separator] of [['CSV', ','], ['JSON', ';']] as const) await roundTrip('/api/contacts', `_id;eq;${contact._id}`, format, separator);

    const source = await create(server, '/api/knowledge-sources', { name: '+source one', type: 'text', sourceText: '=formula text', text: '-edited' });
    const kn = await create(server, '/api/knowledge', minimalKnowledge('rt-kn', { sources: [source._id], maxResults: 3, scoreThreshold: 0.25 }));
    for (const [format, separator] of [['CSV', ';'], ['JSON', ';']] as const) await roundTrip('/api/knowledge', `_id;eq;${kn._id}`, format, separator);
  });

  it('trace statuses (unique names): exported, deleted, imported back', async () => {
    const names = ['=st1', '-st2', "'st3", 'st;4'];
    const made: { _id: string }[] = [];
    for (const name of names) made.push(await create(server, '/api/bot-trace-statuses', { name, description: `+${name}` }));
    await roundTrip('/api/bot-trace-statuses', `_id;in;${made.map((m) => m._id).join(',')}`, 'CSV', ',', async () => {
      for (const m of made) expect((await server.del(`/api/bot-trace-statuses/${m._id}`)).status).toBe(204);
    });
    const all = (await server.get('/api/bot-trace-statuses/find?limit=1000')).body as { name: string; description: string }[];
    expect(all.filter((s) => names.includes(s.name)).map((s) => [s.name, s.description]).sort()).toEqual(names.map((n) => [n, `+${n}`]).sort());
  });
});

describe('refs written as display values', () => {
  const upload = (content: string, dryRun = true) =>
    server.upload(`/api/bot-traces/import?dryRun=${dryRun}`, { name: 'traces.csv', content });

  it('an ambiguous or unknown display value names row, column and value; an id always works', async () => {
    await create(server, '/api/bots', minimalBot('Twin'));
    const twin = await create(server, '/api/bots', minimalBot('Twin'));
    const content = [
      'status,bot,chatId',
      `ok,${twin._id},by-id`, // row 1: an id, even of an ambiguous name
      'ok,Twin,ambiguous', // row 2
      'ok,Nobody,unknown', // row 3
      'no such status,Traced,bad status', // row 4
      `${fx.ok._id},Traced,mixed`, // row 5
    ].join('\n');
    const dry = await upload(content);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ total: 5, valid: 2, invalid: 3 });
    expect(dry.body.errors).toEqual([
      { row: 2, field: 'bot', reason: 'validation.refAmbiguous', params: { value: 'Twin', count: 2 } },
      { row: 3, field: 'bot', reason: 'validation.refNoMatch', params: { value: 'Nobody' } },
      { row: 4, field: 'status', reason: 'validation.refNoMatch', params: { value: 'no such status' } },
    ]);
    const before = (await server.get('/api/bot-traces')).body.total;
    const real = await upload(content, false);
    expect(real.status).toBe(400);
    expect(real.body.inputErrors).toEqual([
      { field: '2.bot', reason: 'validation.refAmbiguous' },
      { field: '3.bot', reason: 'validation.refNoMatch' },
      { field: '4.status', reason: 'validation.refNoMatch' },
    ]);
    expect((await server.get('/api/bot-traces')).body.total).toBe(before);
  });

  it('array.ref entries resolve one by one and name their index', async () => {
    await create(server, '/api/knowledge-sources', { name: 'dup source', type: 'text', sourceText: 'x', text: 'x' });
    await create(server, '/api/knowledge-sources', { name: 'dup source', type: 'text', sourceText: 'y', text: 'y' });
    const single = await create(server, '/api/knowledge-sources', { name: 'single source', type: 'text', sourceText: 'z', text: 'z' });
    const content = ['name;toolDescription;sources', 'K1;t;"[""single source"",""dup source"",""missing""]"', `K2;t;"[""${single._id}""]"`].join('\r\n');
    const dry = await server.upload('/api/knowledge/import?dryRun=true', { name: 'k.csv', content });
    expect(dry.body.errors).toEqual([
      { row: 1, field: 'sources.1', reason: 'validation.refAmbiguous', params: { value: 'dup source', count: 2 } },
      { row: 1, field: 'sources.2', reason: 'validation.refNoMatch', params: { value: 'missing' } },
    ]);
    expect(dry.body).toMatchObject({ valid: 1, invalid: 1 });
  });

  it('JSON: a populated ref whose id is unknown here falls back to its display value', async () => {
    const rows = [{ status: { _id: 'from-another-install', name: 'ok' }, bot: { _id: 'gone', name: 'Traced' }, chatId: 'json-fallback' }, { status: 'ok', bot: 'Traced', chatId: 'json-names' }];
    const res = await server.upload('/api/bot-traces/import', { name: 't.json', content: JSON.stringify(rows) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 2, errors: [] });
    const found = await server.get(`/api/bot-traces/find${qs({ filters: 'chatId;in;json-fallback,json-names', orderBy: 'createdAt' })}`);
    expect(found.status, found.text).toBe(200);
    const stored = found.body;
    expect(stored).toMatchObject([{ chatId: 'json-fallback', status: { _id: fx.ok._id }, bot: { _id: fx.bot._id } }, { chatId: 'json-names', status: { _id: fx.ok._id } }]);
  });
});

describe('CSV separator and report messages', () => {
  it('detects `;`, `,` and tab from the header line; an explicit separator still wins', async () => {
    for (const separator of [';', ',', '\t']) {
      const content = [`name${separator}description`, `sep ${separator.charCodeAt(0)}${separator}"has ; and , inside"`].join('\n');
      const res = await server.upload('/api/bot-trace-statuses/import?dryRun=true', { name: 's.csv', content });
      expect(res.body, JSON.stringify(separator)).toMatchObject({ total: 1, valid: 1, errors: [] });
    }
    // A header with both: the more frequent one is the separator.
    const mixed = await server.upload('/api/bots/import?dryRun=true', { name: 'b.csv', content: 'name,description,questions\n"a;b",c,"[""x;y""]"\n' });
    expect(mixed.body).toMatchObject({ total: 1, valid: 1 });
    const forced = await server.upload('/api/bot-trace-statuses/import?dryRun=true&separator=|', { name: 's.csv', content: 'name|description\nx;y|z\n' });
    expect(forced.body).toMatchObject({ valid: 1, errors: [] });
    const bad = await server.upload('/api/bot-trace-statuses/import?dryRun=true&separator=%22', { name: 's.csv', content: 'name\nx\n' });
    expect(bad.status).toBe(400);
  });

  it('length and range reasons carry the limit their text shows', async () => {
    const long = 'x'.repeat(81);
    const res = await server.upload('/api/bot-trace-statuses/import?dryRun=true', { name: 's.csv', content: `name;description\n${long};d\n` });
    expect(res.body.errors).toEqual([{ row: 1, field: 'name', reason: 'validation.maxLength', params: { max: 80 } }]);
    const negative = await server.upload('/api/bot-traces/import?dryRun=true', { name: 't.csv', content: `status;bot;tokens\nok;Traced;-5\n` });
    expect(negative.body.errors).toEqual([{ row: 1, field: 'tokens', reason: 'validation.min', params: { min: 0 } }]);
  });
});
