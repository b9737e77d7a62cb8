// Part of `npm run bench:load`: p99 of /api/health and of a list page while the heavy work runs
// (issue 18: a 1,000,000-row export alone, then a 120,000-row import with that export beside it, then
// 8 s more for the import's WAL checkpoint). Seeds a
// temporary DATA_DIR straight through better-sqlite3, starts the server as `npm start` runs it (the
// esbuild bundle, worker pool included) and probes it from this process while the work runs.
// BENCH_EXPORT_ROWS (default 1,000,000) and BENCH_IMPORT_ROWS (default 120,000) set the sizes.
// The export and the import are plain node:http requests without a time limit: fetch (undici)
// gives up on a response whose headers take over 300 s, which a 120,000-row import next to a
// 1,000,000-row export did on a busy machine; the bench then failed and stopped its server, which
// logged "shutting down" mid-run. A server that exits, or a signal to this process, is now named.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { entities } from '../../server/generated/entities.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateEntities } from '../../server/db/migrate-entities.ts';
import { newRecordId } from '../../server/entities/new-record-id.ts';
import { ensureServerBuild } from '../../scripts/build-server.ts';
import { login, ROOT, spawnServer } from '../fuzz/helpers/child-server.ts';

const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 120_000);
/** Probing goes on this long after the import, when its WAL checkpoint runs. */
const AFTER_IMPORT_SECONDS = 8;
const HEALTH_EVERY_MS = 20;
const LIST_EVERY_MS = 50;
const LIST_PAGE = '/api/bot-traces?page=1&limit=20';

export interface PhaseFigures {
  phase: string;
  seconds: number;
  health: { count: number; p50: number; p99: number; max: number };
  list: { count: number; p50: number; p99: number; max: number };
  work: string;
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

export function seed(dataDir: string, models: typeof entities): Promise<string> {
  return (async () => {
    const began = performance.now();
    // Tables as the server creates them; bot_traces without indexes while filling (the server adds them at start).
    const all = Object.values(models).map((m) => (m.name === 'bottrace' ? { ...m, storage: { ...m.storage, indexes: [] } } : m));
    const database = openDatabase({ dataDir, databaseUrl: null });
    await migrateEntities(database, all, { info() {}, warn() {} } as never);
    await database.close();
    const db = new Database(path.join(dataDir, 'forja.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const now = new Date().toISOString();
    const statusId = newRecordId();
    db.prepare('INSERT INTO bot_trace_statuses (_id, name, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(statusId, 'ok', now, now);
    const botId = newRecordId();
    db.prepare('INSERT INTO bots (_id, name, description, questions, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)').run(botId, 'Load bot', 'd', '[]', now, now);
    // Many rows per statement and per transaction: one statement per row cost most of the seeding.
    const columns = '(_id, status, bot, chatId, userMessage, assistantMessage, reaction, knowledgeBase, provider, model, inputTokens, outputTokens, tokens, latency, tenant, createdAt, updatedAt)';
    const placeholders = (rows: number) => Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, NULL, '[]', 'offline', 'offline', ?, ?, ?, ?, NULL, ?, ?)").join(', ');
    const ROWS_PER_STATEMENT = 500;
    const full = db.prepare(`INSERT INTO bot_traces ${columns} VALUES ${placeholders(ROWS_PER_STATEMENT)}`);
    const start = Date.now() - EXPORT_ROWS * 1000;
    const params: unknown[] = [];
    const insertRows = db.transaction((from: number, to: number) => {
      for (let first = from; first < to; first += ROWS_PER_STATEMENT) {
        const last = Math.min(to, first + ROWS_PER_STATEMENT);
        params.length = 0;
        for (let i = first; i < last; i++) {
          const at = new Date(start + i * 1000).toISOString();
          params.push(newRecordId(start + i * 1000), statusId, botId, `chat-${i % 50_000}`, `¿Horario del servicio? (#${i})`, 'Abrimos de 9 a 18 h.', 100 + (i % 400), 50 + (i % 300), 150 + (i % 700), 200 + (i % 5000), at, at);
        }
        const statement = last - first === ROWS_PER_STATEMENT ? full : db.prepare(`INSERT INTO bot_traces ${columns} VALUES ${placeholders(last - first)}`);
        statement.run(...params);
      }
    });
    for (let from = 0; from < EXPORT_ROWS; from += 200_000) insertRows(from, Math.min(EXPORT_ROWS, from + 200_000));
    console.log(`heavy work: ${EXPORT_ROWS.toLocaleString('en')} rows inserted in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // The indexes now, as the server would at its start (which must answer within a minute here).
    const indexed = openDatabase({ dataDir, databaseUrl: null });
    await migrateEntities(indexed, Object.values(models), { info() {}, warn() {} } as never);
    await indexed.close();
    console.log(`heavy work: indexes built, ${((performance.now() - began) / 1000).toFixed(1)} s in all`);
    return botId;
  })();
}

/** A CSV of IMPORT_ROWS bot traces as an export writes them (the bot by its name). */
function importFile(): string {
  const lines = ['status;bot;chatId;userMessage;assistantMessage;tokens;latency'];
  for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`ok;Load bot;import-${i};Pregunta ${i} sobre precios;Respuesta ${i}: de 9 a 18 h;${i % 500};${i % 3000}`);
  return lines.join('\n');
}

export async function heavyWorkLatency(): Promise<PhaseFigures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-heavy-'));
  const figures: PhaseFigures[] = [];
  const seeding = performance.now();
  await seed(dataDir, entities);
  console.log(`heavy work: seeded ${EXPORT_ROWS.toLocaleString('en')} bot traces in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const bundle = await ensureServerBuild(ROOT, () => {});
  const server = await spawnServer({
    dataDir,
    entry: [bundle],
    env: { LOG_LEVEL: 'warn', IMPORT_MAX_ROWS: String(Math.max(50_000, IMPORT_ROWS)), MAX_UPLOAD_BYTES: String(128 * 1024 * 1024), EXPORT_QUOTA_BYTES: String(8 * 1024 ** 3) },
  });
  const base = server.baseUrl;
  // Why the server stopped, if it does before the end: its exit code or signal, and whether this
  // process was signalled (a time limit of whatever runs the bench sends SIGTERM to the whole
  // process group, the server included, which then logs "shutting down").
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    console.error(`heavy work: this process got ${signal} (from whatever runs the bench, e.g. a time limit); stopping the server`);
    void server.kill('SIGTERM').finally(() => process.exit(1));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let stopping = false;
  const serverExit = new Promise<never>((_, reject) =>
    server.process.once('exit', (code, signal) => {
      if (!stopping) reject(new Error(`the server exited mid-run (code ${code}, signal ${signal}${signalled ? `, after this process got ${signalled}` : ''})`));
    }),
  );
  serverExit.catch(() => {});
  try {
    const token = await login(base);
    const auth = { authorization: `Bearer ${token}` };
    const csv = importFile();
    console.log(`heavy work: import file ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MB, ${IMPORT_ROWS.toLocaleString('en')} rows`);

    const runPhase = async (phase: string, work: () => Promise<string>, minSeconds = 0): Promise<void> => {
      const health: number[] = [];
      const list: number[] = [];
      let running = true;
      const probe = async (url: string, headers: Record<string, string>, every: number, into: number[]) => {
        while (running) {
          const started = performance.now();
          const res = await fetch(url, { headers });
          const text = await res.text();
          if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
          into.push(performance.now() - started);
          await new Promise((r) => setTimeout(r, every));
        }
      };
      const probes = Promise.all([probe(`${base}/api/health`, {}, HEALTH_EVERY_MS, health), probe(`${base}${LIST_PAGE}`, auth, LIST_EVERY_MS, list)]);
      probes.catch(() => {});
      const started = performance.now();
      let result: string;
      try {
        [result] = await Promise.race([Promise.all([work(), new Promise((r) => setTimeout(r, minSeconds * 1000))]), serverExit]);
      } finally {
        running = false;
      }
      await probes;
      figures.push({ phase, seconds: (performance.now() - started) / 1000, health: percentiles(health), list: percentiles(list), work: result });
      const last = figures.at(-1)!;
      console.log(`heavy work: ${phase}: ${last.seconds.toFixed(1)} s, health p99 ${last.health.p99.toFixed(1)} ms, list p99 ${last.list.p99.toFixed(1)} ms (${result})`);
    };

    const exportRows = async (): Promise<string> => {
      const started = performance.now();
      const res = await longRequest(`${base}/api/bot-traces/export?format=CSV`, { headers: auth });
      const body = res.body as { rowCount?: number; message?: string };
      if (res.status !== 200) throw new Error(`export: ${res.status} ${JSON.stringify(body)}`);
      return `export ${body.rowCount!.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`;
    };
    const importRows = async (): Promise<string> => {
      const started = performance.now();
      const boundary = `bench${Date.now()}`;
      const upload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="traces.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        Buffer.from(csv),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await longRequest(`${base}/api/bot-traces/import`, { method: 'POST', body: upload, headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` } });
      const body = res.body as { created?: number; message?: string };
      if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return `import ${body.created!.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`;
    };

    // The list's total is counted once and cached until a write: warm it as a console would have.
    await fetch(`${base}${LIST_PAGE}`, { headers: auth });
    await runPhase('idle', async () => 'no work', 5);
    await runPhase(`export of ${EXPORT_ROWS.toLocaleString('en')} rows (CSV)`, exportRows);
    // The import with an export of every row started beside it (the import takes longer on its own).
    await runPhase(`import of ${IMPORT_ROWS.toLocaleString('en')} rows (CSV, written) + export of ${EXPORT_ROWS.toLocaleString('en')}`, async () =>
      (await Promise.all([importRows(), exportRows()])).join(', '),
    );
    // The WAL checkpoint of the import's transaction comes after its response (server/db/sqlite-checkpointer.ts):
    // probed on, with the WAL file's size before and after (the worker truncates it once idle).
    const walFile = path.join(dataDir, 'forja.db-wal');
    const walMb = () => (fs.existsSync(walFile) ? fs.statSync(walFile).size / 1024 / 1024 : 0);
    const walBefore = walMb();
    await runPhase(`${AFTER_IMPORT_SECONDS} s after the import (WAL checkpoint)`, async () => 'no work', AFTER_IMPORT_SECONDS);
    figures.at(-1)!.work = `WAL file ${walBefore.toFixed(1)} MB -> ${walMb().toFixed(1)} MB`;
  } catch (error) {
    console.error(`heavy work failed; the server printed:\n${server.output().slice(-4000)}`);
    throw error;
  } finally {
    stopping = true;
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

/** One request without a time limit (see the top of this file): its status and JSON body. */
function longRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer }): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, ...(options.body ? { 'content-length': String(options.body.length) } : {}) };
    const request = http.request(url, { method: options.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: reported as text
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

export function printHeavyWork(figures: PhaseFigures[]): void {
  console.log('\nheavy work (SQLite, bundle as npm start runs it): latency of probes while it runs');
  console.log('| while | health p50 | health p99 | health max | list page p50 | list page p99 | the work |');
  console.log('|---|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(`| ${f.phase} | ${f.health.p50.toFixed(1)} ms | ${f.health.p99.toFixed(1)} ms | ${f.health.max.toFixed(0)} ms | ${f.list.p50.toFixed(1)} ms | ${f.list.p99.toFixed(1)} ms | ${f.work} |`);
  }
}
