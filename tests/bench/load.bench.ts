// npm run bench:load (tsx tests/bench/load.bench.ts) — a mixed workload against one server for a
// fixed time: console users (sign in, paginate, create, update) and chat visitors (start, message)
// as concurrent clients. Prints throughput, p50/p99 per operation and the error rate, checks that
// every acknowledged create is stored, and exits non-zero on any error or lost write.
// BENCH_SECONDS (default 30), BENCH_CONSOLE (default 12) and BENCH_VISITORS (default 8) set the load.
// Then (tests/bench/heavy-work-latency.ts) p50/p99 of /api/health and of a list page while a
// 1,000,000-row export runs, then while a 120,000-row import runs beside another such export
// (BENCH_HEAVY=0 skips this part; BENCH_EXPORT_ROWS and BENCH_IMPORT_ROWS set the sizes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHILD_ADMIN_PASSWORD, call, login, spawnServer } from '../fuzz/helpers/child-server.ts';
import { heavyWorkLatency, printHeavyWork } from './heavy-work-latency.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONSOLE_CLIENTS = Number(process.env.BENCH_CONSOLE ?? 12);
const VISITORS = Number(process.env.BENCH_VISITORS ?? 8);
const OPS_PER_SESSION = 25;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-load-'));
// The public limits are per IP and every simulated client shares 127.0.0.1: raised for the bench.
const server = await spawnServer({
  dataDir,
  env: {
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN: '100000',
    CHAT_RATE_START_PER_MINUTE: '100000',
    CHAT_RATE_READ_PER_MINUTE: '100000',
    CHAT_RATE_MESSAGE_PER_MINUTE: '100000',
    CHAT_RATE_CONVERSATION_PER_MINUTE: '100000',
  },
});
const base = server.baseUrl;

const samples = new Map<string, number[]>();
const errors: string[] = [];
const created: string[] = [];
let stop = false;

async function timed<T extends { status: number; text: string }>(op: string, expected: number[], run: () => Promise<T>): Promise<T | null> {
  const started = performance.now();
  try {
    const res = await run();
    const took = performance.now() - started;
    if (!samples.has(op)) samples.set(op, []);
    samples.get(op)!.push(took);
    if (!expected.includes(res.status)) {
      errors.push(`${op} -> ${res.status} ${res.text.slice(0, 200)}`);
      return null;
    }
    return res;
  } catch (error) {
    errors.push(`${op} -> ${(error as Error).message}`);
    return null;
  }
}

const admin = await login(base);
const bot = await call(base, admin, 'POST', '/api/bots', { name: 'Load bot', description: 'Answers visitors', questions: ['¿Horario?'] });
if (bot.status !== 201) throw new Error(`bot: ${bot.status} ${bot.text}`);
for (let i = 0; i < 200; i++) await call(base, admin, 'POST', '/api/contacts', { name: `Seed contact ${i}`, email: `seed${i}@example.com` });

async function consoleUser(n: number): Promise<void> {
  let token = '';
  let mine: string[] = [];
  for (let op = 0; !stop; op++) {
    if (op % OPS_PER_SESSION === 0) {
      const res = await timed('login', [200], () => call(base, null, 'POST', '/api/auth/login', { username: 'admin', password: CHILD_ADMIN_PASSWORD }));
      if (!res) continue;
      token = res.body.accessToken;
      mine = [];
      continue;
    }
    const roll = Math.random();
    if (roll < 0.55) {
      const page = 1 + Math.floor(Math.random() * 10);
      await timed('paginate', [200], () => call(base, token, 'GET', `/api/contacts?page=${page}&limit=20&orderBy=createdAt&order=desc`));
    } else if (roll < 0.8 || mine.length === 0) {
      const res = await timed('create', [201], () => call(base, token, 'POST', '/api/contacts', { name: `Load ${n}-${op}`, email: `load${n}x${op}x${Date.now()}@example.com` }));
      if (res) {
        created.push(res.body._id);
        mine.push(res.body._id);
      }
    } else {
      const id = mine[Math.floor(Math.random() * mine.length)]!;
      await timed('update', [200], () => call(base, token, 'PUT', `/api/contacts/${id}`, { name: `Load ${n}-${op} updated`, email: `upd${n}x${op}x${Date.now()}@example.com` }));
    }
  }
}

async function visitor(n: number): Promise<void> {
  while (!stop) {
    const started = await timed('chat start', [201], () => call(base, null, 'POST', '/api/chat/start', { name: `Visitor ${n}`, email: `visitor${n}@example.com`, botId: bot.body._id }));
    if (!started) continue;
    for (let m = 0; m < 3 && !stop; m++) {
      await timed('chat message', [200], () => call(base, null, 'POST', `/api/chat/message/${started.body._id}`, { message: `¿Cuál es el horario? (${m})` }));
    }
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

console.log(`load: ${CONSOLE_CLIENTS} console users + ${VISITORS} chat visitors for ${SECONDS}s against ${base} (offline LLM provider, SQLite)`);
const began = performance.now();
const clients = [...Array.from({ length: CONSOLE_CLIENTS }, (_, i) => consoleUser(i)), ...Array.from({ length: VISITORS }, (_, i) => visitor(i))];
await new Promise((r) => setTimeout(r, SECONDS * 1000));
stop = true;
await Promise.all(clients);
const elapsed = (performance.now() - began) / 1000;

let total = 0;
const all: number[] = [];
console.log('operation        count    req/s    p50 ms   p99 ms');
for (const [op, values] of [...samples.entries()].sort()) {
  total += values.length;
  all.push(...values);
  console.log(`${op.padEnd(15)} ${String(values.length).padStart(6)} ${(values.length / elapsed).toFixed(1).padStart(8)} ${percentile(values, 50).toFixed(1).padStart(9)} ${percentile(values, 99).toFixed(1).padStart(8)}`);
}
console.log(`${'all'.padEnd(15)} ${String(total).padStart(6)} ${(total / elapsed).toFixed(1).padStart(8)} ${percentile(all, 50).toFixed(1).padStart(9)} ${percentile(all, 99).toFixed(1).padStart(8)}`);
console.log(`errors: ${errors.length} (${((errors.length / Math.max(1, total)) * 100).toFixed(2)}%)`);
for (const error of [...new Set(errors)].slice(0, 10)) console.log(`  ${error}`);

// Nothing lost: every acknowledged create is stored.
const stored = await call(base, admin, 'GET', '/api/contacts/find?limit=10000');
const ids = new Set((stored.body as { _id: string }[]).map((c) => c._id));
const lost = created.filter((id) => !ids.has(id));
console.log(`acknowledged creates: ${created.length}, lost: ${lost.length}`);
await server.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });
if (process.env.BENCH_HEAVY !== '0') printHeavyWork(await heavyWorkLatency());
process.exit(errors.length > 0 || lost.length > 0 ? 1 : 0);
