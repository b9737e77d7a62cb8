// npm run bench:api — the generic entity API under load on 1,000,000 BotTrace rows.
// Seeds a temporary DATA_DIR directly through better-sqlite3, starts the real server in a child
// process (so its RSS can be read from /proc), drives it with autocannon and prints latency,
// throughput, export speed and the cost of the same page query issued straight to SQLite.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { entities } from '../../server/generated/entities.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateEntities } from '../../server/db/migrate-entities.ts';
import { newRecordId } from '../../server/entities/new-record-id.ts';

interface AutocannonResult {
  latency: { p50: number; p99: number; average: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const PORT = 3900 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const REACTIONS = entities.bottrace.fields.find((f) => f.name === 'reaction')!.values!;
const WORDS = ['reset password', 'billing', 'invoice', 'refund', 'login', 'shipping', 'delivery', 'account', 'cancel', 'upgrade'];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-api-'));
// Every request is authenticated as the seeded administrator, as the console's would be.
const ADMIN_PASSWORD = 'bench-admin-password';
let token = '';
const dbFile = path.join(dataDir, 'forja.db');

async function seed(): Promise<{ statusIds: string[]; traceIds: string[] }> {
  // Tables exactly as the server creates them, but bot_traces without its indexes: filling an
  // indexed table row by row is several times slower. The server creates them at start-up.
  const models = Object.values(entities).map((m) => (m.name === 'bottrace' ? { ...m, storage: { ...m.storage, indexes: [] } } : m));
  const database = openDatabase({ dataDir, databaseUrl: null });
  await migrateEntities(database, models, { info() {}, warn() {} } as never);
  await database.close();

  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = new Date().toISOString();
  const statusIds = ['ok', 'error', 'timeout', 'filtered', 'escalated'].map((name) => {
    const id = newRecordId();
    db.prepare('INSERT INTO bot_trace_statuses (_id, name, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(id, name, now, now);
    return id;
  });
  const botIds = Array.from({ length: 10 }, (_, i) => {
    const id = newRecordId();
    db.prepare('INSERT INTO bots (_id, name, description, questions, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)').run(id, `Bot ${i}`, 'd', '[]', now, now);
    return id;
  });
  const insert = db.prepare(`INSERT INTO bot_traces (_id, status, bot, chatId, userMessage, assistantMessage, reaction, knowledgeBase,
    provider, model, inputTokens, outputTokens, tokens, latency, tenant, createdAt, updatedAt)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`);
  const traceIds: string[] = [];
  const start = Date.now() - ROWS * 1000;
  const started = performance.now();
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const time = start + i * 1000;
      const id = newRecordId(time);
      if (i % 1000 === 0) traceIds.push(id);
      const at = new Date(time).toISOString();
      const word = WORDS[i % WORDS.length];
      insert.run(id, statusIds[i % statusIds.length], botIds[i % botIds.length], `chat-${i % 50_000}`,
        `How do I ${word}? (#${i})`, `Here is how to ${word}.`, i % 3 === 0 ? REACTIONS[i % REACTIONS.length] : null, '[]',
        i % 2 ? 'openai' : 'offline', 'gpt-4o-mini', 100 + (i % 400), 50 + (i % 300), 150 + (i % 700), 200 + (i % 5000), at, at);
    }
  });
  for (let from = 0; from < ROWS; from += 50_000) batch(from, Math.min(ROWS, from + 50_000));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${ROWS.toLocaleString('en')} bot traces in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds).toLocaleString('en')} rows/s)`);
  return { statusIds, traceIds };
}

function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      try {
        const res = await fetch(`${BASE}/api/health`);
        if (res.ok) {
          const login = await fetch(`${BASE}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
          });
          token = ((await login.json()) as { accessToken: string }).accessToken;
          return resolve(child);
        }
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error('server did not start'));
      setTimeout(poll, 200);
    };
    poll();
  });
}

function pid(child: ChildProcess): number {
  return child.pid!;
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function load(name: string, paths: string[]): Promise<AutocannonResult> {
  let next = 0;
  const result = await autocannon({
    url: BASE,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  console.log(
    `${name.padEnd(34)} p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ` +
      `${Math.round(result.requests.average).toLocaleString('en').padStart(7)} req/s  (${result.requests.total} requests, non-2xx ${result.non2xx}, errors ${result.errors})`,
  );
  return result;
}

function directPageTime(statusId: string): { page: number; count: number } {
  const db = new Database(dbFile, { readonly: true });
  const columns = entities.bottrace.storage.columns.map((c) => `"${c.name}"`).join(', ');
  const page = db.prepare(`select ${columns} from "bot_traces" where "status" = ? order by "createdAt" desc, "_id" desc limit ? offset ?`);
  const count = db.prepare('select count(*) as "total" from "bot_traces" where "status" = ?');
  const time = (fn: () => unknown) => {
    for (let i = 0; i < 20; i++) fn();
    const runs = 200;
    const t = performance.now();
    for (let i = 0; i < runs; i++) fn();
    return (performance.now() - t) / runs;
  };
  const result = { page: time(() => page.all(statusId, 10, 0)), count: time(() => count.get(statusId)) };
  db.close();
  return result;
}

/** One GET on a fresh connection (a pooled keep-alive socket may be closed by the server meanwhile). */
function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`${res.statusCode} ${text}`))));
    }).on('error', reject);
  });
}

/** Waits until requests still queued from a load run are done, so runs do not overlap. */
async function drain(): Promise<void> {
  await getJson(`${BASE}/api/health`);
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const { statusIds, traceIds } = await seed();
const booting = performance.now();
let server = await startServer();
console.log(`server ready (indexes of bot_traces built at start-up) in ${((performance.now() - booting) / 1000).toFixed(1)} s`);
try {
  const q = (params: Record<string, string>) => `/api/bot-traces?${new URLSearchParams(params)}`;
  const page = { page: '1', limit: '10', orderBy: 'createdAt', order: 'desc' };
  const filteredPaths = statusIds.map((s) => q({ ...page, filters: `status;eq;${s}` }));
  const searchPaths = ['refund', 'billing', 'login'].map((word) => q({ ...page, search: word }));
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, ${ROWS.toLocaleString('en')} rows; indexes as generated`);
  await load('warm-up', [q(page)]);
  await drain();
  const plain = await load('paginate page 1', [q(page)]);
  await drain();
  const byId = await load('GET by id', traceIds.map((id) => `/api/bot-traces/${id}`));
  await drain();
  const filtered = await load('paginate + filter status eq', filteredPaths);
  await drain();
  const direct = directPageTime(statusIds[0]);
  console.log(
    `  direct better-sqlite3, same filtered page: page ${direct.page.toFixed(2)} ms + count ${direct.count.toFixed(2)} ms; ` +
      `HTTP p50 ${filtered.latency.p50} ms (${(filtered.latency.p50 / (direct.page + direct.count)).toFixed(1)}x, ${CONNECTIONS} concurrent connections)`,
  );

  let peak = rssMb(pid(server), 'VmRSS');
  const baseline = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid(server), 'VmRSS'))), 25);
  const t = performance.now();
  const body = await getJson<{ url: string; rowCount: number; time: number }>(`${BASE}/api/bot-traces/export?format=CSV&limit=0`);
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const size = fs.statSync(path.join(dataDir, body.url.replace(/^\/files\//, ''))).size;
  const rate = body.rowCount / seconds;
  console.log(
    `\nexport CSV: ${body.rowCount.toLocaleString('en')} rows in ${seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en')} rows/s, ` +
      `${(size / 1024 / 1024).toFixed(0)} MB file; server RSS ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during`,
  );

  // The model indexes every filterable column alone, so SQLite answers "status = ? ORDER BY
  // createdAt DESC" by sorting every row of that status. A (status, createdAt) index (what we
  // propose the generator emits for filterable fields) turns it into an index walk.
  await stop(server);
  const db = new Database(dbFile);
  db.exec('CREATE INDEX IF NOT EXISTS idx_bot_traces_status_createdAt ON bot_traces (status, createdAt)');
  db.close();
  server = await startServer();
  console.log('\nwith a (status, createdAt) index added');
  const composite = await load('paginate + filter status eq', filteredPaths);
  await drain();
  const directComposite = directPageTime(statusIds[0]);
  console.log(`  direct better-sqlite3: page ${directComposite.page.toFixed(2)} ms + count ${directComposite.count.toFixed(2)} ms`);
  const search = await load('paginate + search (3 words)', searchPaths);
  await drain();

  console.log('\ngoals:');
  console.log(`  filtered page p50 < 10 ms ........ ${filtered.latency.p50} ms as generated, ${composite.latency.p50} ms with (status, createdAt)`);
  console.log(`  GET by id >= 3,000 req/s .......... ${Math.round(byId.requests.average)}`);
  console.log(`  export >= 200,000 rows/s ......... ${Math.round(rate)}`);
  console.log(`  export peak RSS < 300 MB ......... ${peak.toFixed(0)} MB`);
  console.log(`  (unfiltered page p50 ${plain.latency.p50} ms; search p50 ${search.latency.p50} ms)`);
} finally {
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
