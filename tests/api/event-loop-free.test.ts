import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { WORKER_PARSE_BYTES } from '../../server/entities/import-file-rows.ts';
import { MAIN_THREAD_MARKUP_BYTES } from '../../server/rag/parse/file-parsers.ts';

/**
 * Issue 18: the event loop stays free while heavy work runs. Large import files are parsed in the
 * worker pool and written in slices (SQLite) or statement by statement (PostgreSQL), exports are
 * streamed batch by batch, and large HTML is parsed in the pool: /api/health keeps answering while
 * each runs (a count of answered probes, no timings: figures are in `npm run bench:load`). Worker
 * refusals say the same as the main-thread path did.
 */
let server: TestServer;
const IMPORT_ROWS = 5_000;

beforeAll(async () => {
  server = await startTestServer();
  await create(server, '/api/bots', minimalBot('Bot de carga'));
}, 60_000);
afterAll(async () => server?.close());

/** Runs `work` while probing /api/health back to back; returns its result and the probes answered (200) before it finished. */
async function whileProbing<T>(work: Promise<T>): Promise<{ result: T; answered: number }> {
  let finished = false;
  const done = work.finally(() => (finished = true));
  let answered = 0;
  while (!finished) {
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    if (!finished) answered += 1;
  }
  return { result: await done, answered };
}

function tracesCsv(rows: number): string {
  const lines = ['status;bot;chatId;userMessage;assistantMessage;tokens;latency'];
  for (let i = 0; i < rows; i++) lines.push(`ok;Bot de carga;carga-${i};Pregunta ${i} sobre horarios y precios;Respuesta ${i}: de 9 a 18 h;${i % 500};${i % 3000}`);
  return lines.join('\n');
}

describe('health keeps answering during heavy work', () => {
  it(`a ${IMPORT_ROWS}-row CSV import (parsed in a worker, written in slices)`, async () => {
    const file = tracesCsv(IMPORT_ROWS);
    expect(Buffer.byteLength(file)).toBeGreaterThan(WORKER_PARSE_BYTES);
    const { result, answered } = await whileProbing(server.upload('/api/bot-traces/import', { name: 'trazas.csv', content: file, type: 'text/csv' }));
    expect(result.status, result.text.slice(0, 500)).toBe(200);
    expect(result.body).toMatchObject({ total: IMPORT_ROWS, valid: IMPORT_ROWS, invalid: 0, created: IMPORT_ROWS });
    expect(answered).toBeGreaterThan(0);
    const stored = await server.get(`/api/bot-traces?search=${encodeURIComponent(`Pregunta ${IMPORT_ROWS - 1} sobre`)}`);
    expect(stored.body.total).toBe(1);
  }, 300_000);

  it('exports of every imported row (CSV and JSON)', async () => {
    const { result, answered } = await whileProbing(
      (async () => [await server.get('/api/bot-traces/export?format=CSV'), await server.get('/api/bot-traces/export?format=JSON')])(),
    );
    for (const res of result) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.rowCount).toBeGreaterThanOrEqual(IMPORT_ROWS);
    }
    expect(answered).toBeGreaterThan(0);
  }, 300_000);

  it('parsing a 1 MB HTML document (in the worker pool)', async () => {
    const paragraphs = Array.from({ length: 12_000 }, (_, i) => `<p>Párrafo ${i} con <b>texto</b> de prueba sobre envíos.</p>`).join('\n');
    const html = Buffer.from(`<html><head><title>Grande</title></head><body><main>${paragraphs}</main></body></html>`);
    expect(html.length).toBeGreaterThan(MAIN_THREAD_MARKUP_BYTES);
    const uploaded = await server.upload('/api/file', { name: 'grande.html', content: html });
    expect(uploaded.status, uploaded.text).toBe(201);
    const { result, answered } = await whileProbing(server.post('/api/rag/parse-file', { filepath: uploaded.body.filepath }));
    expect(result.status, result.text.slice(0, 500)).toBe(200);
    expect(result.body.content.startsWith('Grande\n\nPárrafo 0 con texto de prueba sobre envíos.')).toBe(true);
    expect(result.body.content).toContain('Párrafo 11999 con texto');
    expect(answered).toBeGreaterThan(0);
  }, 300_000);
});

describe('a bad file read in a worker is refused as on the main thread', () => {
  const padding = (bytes: number) => 'x'.repeat(bytes);

  it('CSV with a short or long record: 400 naming the parser error, small (main thread) and large (worker)', async () => {
    const small = 'name;description\nUno;uno\nDos;dos;de más\n';
    const large = `name;description\n${Array.from({ length: 4_000 }, (_, i) => `Bot ${i};${padding(80)}`).join('\n')}\nMalo;malo;de más\n`;
    expect(Buffer.byteLength(large)).toBeGreaterThan(WORKER_PARSE_BYTES);
    for (const content of [small, large]) {
      const res = await server.upload('/api/bots/import?dryRun=true', { name: 'bots.csv', content, type: 'text/csv' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toMatch(/^The CSV file could not be read: Invalid Record Length: columns length is 2, got 3 on line \d+$/);
    }
  });

  it('JSON that does not parse, or is not an array: 400 with the same words either way', async () => {
    const bots = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Bot ${i}`, description: padding(80) }));
    const largeBroken = JSON.stringify(bots(3_000)).slice(0, -1);
    expect(Buffer.byteLength(largeBroken)).toBeGreaterThan(WORKER_PARSE_BYTES);
    for (const content of ['[{"name": "x"', largeBroken]) {
      const res = await server.upload('/api/bots/import?dryRun=true', { name: 'bots.json', content, type: 'application/json' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toMatch(/^The JSON file could not be read: /);
    }
    const largeObject = JSON.stringify({ bots: bots(3_000) });
    for (const content of ['{"name": "x"}', largeObject]) {
      const res = await server.upload('/api/bots/import?dryRun=true', { name: 'bots.json', content, type: 'application/json' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toBe('A JSON import must be one array of records');
    }
  });

  it('more rows than IMPORT_MAX_ROWS (50,000) in a file parsed by the worker: 413, nothing written', async () => {
    const before = await server.get('/api/bots?limit=1');
    const content = `name\n${Array.from({ length: 50_001 }, (_, i) => `Muchos ${i} ${padding(6)}`).join('\n')}\n`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(WORKER_PARSE_BYTES);
    const res = await server.upload('/api/bots/import', { name: 'bots.csv', content, type: 'text/csv' });
    expect(res.status, res.text).toBe(413);
    expect(res.body).toMatchObject({ i18nMessage: 'error.importTooManyRows' });
    expect(res.body.message).toContain('more than 50000 rows');
    const after = await server.get('/api/bots?limit=1');
    expect(after.body.total).toBe(before.body.total);
  });
});
