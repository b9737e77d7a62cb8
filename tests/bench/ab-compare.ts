// The side-by-side A/B of two commits' request paths (npm run bench:ab -- <commitA> <commitB>).
// Each commit is checked out into a temporary git worktree (node_modules linked to this
// checkout's, or installed with npm ci when its package-lock differs), built the way `npm start`
// builds it, started on a DATA_DIR of its own holding the same seeded bot traces, and both servers
// are loaded in turn, A then B then B then A..., for several rounds: on a shared, loaded machine
// only figures taken side by side in the same minutes compare. Reports medians of requests/s and
// of server CPU per request (from /proc, so the load generator's own CPU is not counted), the
// ratios B/A, the load average, and the filtered page's CPU against the raw SQLite floor (the same
// page query straight through better-sqlite3).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { login, spawnServer, type ChildServer } from '../fuzz/helpers/child-server.ts';

interface AutocannonResult {
  requests: { total: number };
  non2xx: number;
  errors: number;
  duration: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_PASSWORD = 'bench-ab-admin-password';
const WORDS = ['reset password', 'billing', 'invoice', 'refund', 'login', 'shipping', 'delivery', 'account', 'cancel', 'upgrade'];
const REACTIONS = ['Helpful', 'Unhelpful', 'Perfect', 'Incorrect'];
const CLOCK_TICKS = 100;
/** The figures, by the key BENCH_ONLY names them with. */
export const FIGURES = {
  byId: 'GET by id',
  page: 'page 1, limit 10',
  filter: 'page + status filter',
  search: 'page + search',
  export: 'export CSV (rows)',
} as const; // USER_HZ on Linux: /proc/<pid>/stat counts CPU in 1/100 s.

export interface AbOptions {
  /** Commits (anything `git rev-parse` takes); "." is this checkout's working tree as it is. */
  commitA: string;
  commitB: string;
  rows: number;
  rounds: number;
  /** Seconds of load per figure, per server, per round. */
  seconds: number;
  connections: number;
  /** Seconds of warm-up load per figure and side before the rounds (0: none). */
  warmSeconds: number;
  log?: (line: string) => void;
  /**
   * Where the commits' worktrees are kept between runs (a commit whose package-lock differs costs
   * an npm ci, minutes on a loaded machine); null: a temporary folder, removed at the end.
   */
  worktreeCache: string | null;
  /** Only these figures (keys of FIGURES: byId, page, filter, search, export); empty or absent: all. */
  only?: string[];
  /**
   * A folder for V8 CPU profiles: each side's server runs with --cpu-prof and writes
   * `<folder>/<a|b>/*.cpuprofile` when it stops (open them in Chrome DevTools or speedscope).
   */
  cpuProfileDir?: string | null;
}

/** One measured figure of one server in one round. */
interface Sample {
  rps: number;
  /** Server CPU (user + system, every thread) per request, microseconds. */
  cpuUs: number;
  failures: number;
}

export interface AbFigure {
  name: string;
  a: { rps: number; cpuUs: number };
  b: { rps: number; cpuUs: number };
  /** B/A of the medians: > 1 is faster for requests/s, < 1 is cheaper for CPU. */
  rpsRatio: number;
  cpuRatio: number;
  /** The smallest and largest per-round B/A of requests/s (round i's B over round i's A): the noise. */
  rpsSpread: [number, number];
  cpuSpread: [number, number];
  failures: number;
}

export interface AbResult {
  labels: { a: string; b: string };
  figures: AbFigure[];
  /** The filtered page query + nothing else, straight through better-sqlite3: CPU µs per call. */
  floorUs: number;
  /** Server CPU per filtered page over the floor of the same round, median over the rounds, for A and B. */
  floorRatio: { a: number; b: number };
  load: { before: string; after: string };
  table: string;
}

interface Side {
  key: 'a' | 'b';
  label: string;
  root: string;
  dataDir: string;
  server: ChildServer | null;
  token: string;
  bundle: string;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function git(args: string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A worktree of `commit` under `parent` with node_modules and the server bundle; "." is ROOT itself. */
function checkout(commit: string, parent: string, log: (line: string) => void): { root: string; label: string } {
  if (commit === '.') {
    buildBundle(ROOT, log);
    return { root: ROOT, label: `working tree (${git(['rev-parse', '--short', 'HEAD'])}+)` };
  }
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const root = path.join(parent, sha.slice(0, 12));
  const label = `${commit} (${sha.slice(0, 7)})`;
  if (fs.existsSync(path.join(root, 'dist-server', 'main.mjs')) && fs.existsSync(path.join(root, 'node_modules'))) {
    log(`[ab] ${label}: reusing ${root}`);
    return { root, label };
  }
  if (fs.existsSync(root)) removeWorktree(root);
  git(['worktree', 'prune']);
  git(['worktree', 'add', '--detach', root, sha]);
  const lockHere = fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
  const lockThere = fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  if (lockHere === lockThere) {
    // The same packages: a link to this checkout's node_modules (nothing here writes into it),
    // instantly, where a hard-linked copy of its 60,000 files took 10-15 s to make and remove.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  } else {
    log(`[ab] ${label}: package-lock.json differs from this checkout's, so npm ci runs there (slow)`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  }
  buildBundle(root, log);
  return { root, label };
}

/**
 * Removes a commit's worktree. A linked node_modules is unlinked first, so nothing can ever reach
 * through it into this checkout's packages.
 */
function removeWorktree(root: string): void {
  const modules = path.join(root, 'node_modules');
  if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(modules);
  git(['worktree', 'remove', '--force', root]);
}

/** The commit's own build recipe (scripts/build-server.ts as of that commit), run in its tree. */
function buildBundle(root: string, log: (line: string) => void): void {
  const script = "const m = await import('./scripts/build-server.ts'); await m.ensureServerBuild(process.cwd(), () => {});";
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  log(`[ab] built ${path.relative(ROOT, path.join(root, 'dist-server/main.mjs')) || 'dist-server/main.mjs'}`);
}

/** The same trace rows for both sides (ids, texts, numbers), generated once. */
export function traceRows(rows: number) {
  const start = Date.UTC(2026, 0, 1) - rows * 1000;
  return Array.from({ length: rows }, (_, i) => {
    const time = start + i * 1000;
    const word = WORDS[i % WORDS.length];
    return {
      _id: uuid7(time, i),
      chatId: `chat-${i % 50_000}`,
      userMessage: `How do I ${word}? (#${i})`,
      assistantMessage: `Here is how to ${word}.`,
      reaction: i % 3 === 0 ? REACTIONS[i % REACTIONS.length] : null,
      knowledgeBase: '[]',
      provider: i % 2 ? 'openai' : 'offline',
      model: 'gpt-4o-mini',
      inputTokens: 100 + (i % 400),
      outputTokens: 50 + (i % 300),
      tokens: 150 + (i % 700),
      latency: 200 + (i % 5000),
      createdAt: new Date(time).toISOString(),
      updatedAt: new Date(time).toISOString(),
      index: i,
    };
  });
}

/** A deterministic UUID version 7 (time, then the row number where the randomness would be). */
function uuid7(time: number, n: number): string {
  const hex = time.toString(16).padStart(12, '0') + '7' + (n >>> 20 & 0xfff).toString(16).padStart(3, '0') +
    '8' + (n & 0xfffff).toString(16).padStart(15, '0').slice(-15);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Seeds a DATA_DIR the commit's server has already created (its own tables, its own admin): rows
 * go in through the columns that commit's tables have, so the two schemas may differ.
 */
export function seedTraces(dbFile: string, rows: ReturnType<typeof traceRows>): { statusIds: string[]; traceIds: string[] } {
  const db = new Database(dbFile);
  try {
    db.pragma('synchronous = OFF');
    const now = '2026-01-01T00:00:00.000Z';
    const insertInto = (table: string, values: Record<string, unknown>[]) => {
      const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; notnull: number; dflt_value: unknown; pk: number }[]);
      const known = columns.filter((c) => c.name in values[0]);
      for (const c of columns) {
        if (!(c.name in values[0]) && c.notnull && c.dflt_value === null && !c.pk) {
          throw new Error(`[ab] cannot seed ${table}: its column "${c.name}" is NOT NULL without a default and the A/B seed has no value for it (add it to tests/bench/ab-compare.ts)`);
        }
      }
      const insert = db.prepare(`INSERT INTO "${table}" (${known.map((c) => `"${c.name}"`).join(', ')}) VALUES (${known.map(() => '?').join(', ')})`);
      db.transaction(() => {
        for (const row of values) insert.run(...known.map((c) => row[c.name]));
      })();
    };
    const statusIds = ['ok', 'error', 'timeout', 'filtered', 'escalated'].map((_, i) => uuid7(Date.UTC(2025, 0, 1), i));
    insertInto('bot_trace_statuses', statusIds.map((_id, i) => ({ _id, name: ['ok', 'error', 'timeout', 'filtered', 'escalated'][i], createdAt: now, updatedAt: now })));
    const botIds = Array.from({ length: 10 }, (_, i) => uuid7(Date.UTC(2025, 1, 1), i));
    insertInto('bots', botIds.map((_id, i) => ({ _id, name: `Bot ${i}`, description: 'd', questions: '[]', createdAt: now, updatedAt: now })));
    insertInto('bot_traces', rows.map((row) => ({ ...row, status: statusIds[row.index % statusIds.length], bot: botIds[row.index % botIds.length], tenant: null })));
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { statusIds, traceIds: rows.filter((_, i) => i % Math.max(1, Math.floor(rows.length / 1000)) === 0).map((r) => r._id) };
  } finally {
    db.close();
  }
}

function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
}

function getJson<T>(url: string, token: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`${url} -> ${res.statusCode} ${text}`))));
    }).on('error', reject);
  });
}

async function loadOnce(side: Side, paths: string[], options: AbOptions): Promise<Sample> {
  let next = 0;
  const pid = side.server!.process.pid!;
  const before = cpuTicks(pid);
  const result = await autocannon({
    url: side.server!.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers: { authorization: `Bearer ${side.token}` },
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  // Requests still queued from this run finish before the next side starts.
  await getJson(`${side.server!.baseUrl}/api/health`, side.token);
  const cpu = ((cpuTicks(pid) - before) / CLOCK_TICKS) * 1e6;
  const total = Math.max(1, result.requests.total);
  return { rps: result.requests.total / options.seconds, cpuUs: cpu / total, failures: result.non2xx + result.errors };
}

async function exportOnce(side: Side): Promise<Sample> {
  const pid = side.server!.process.pid!;
  const before = cpuTicks(pid);
  const t = performance.now();
  const body = await getJson<{ url: string; rowCount: number }>(`${side.server!.baseUrl}/api/bot-traces/export?format=CSV&limit=0`, side.token);
  const seconds = (performance.now() - t) / 1000;
  const cpu = ((cpuTicks(pid) - before) / CLOCK_TICKS) * 1e6;
  fs.rmSync(path.join(side.dataDir, new URL(body.url, 'http://local').pathname.replace(/^\/files\//, '')), { force: true });
  // "requests" here are rows: rows/s, and CPU per row.
  return { rps: body.rowCount / seconds, cpuUs: cpu / Math.max(1, body.rowCount), failures: 0 };
}

/** CPU of the filtered page query alone, straight through better-sqlite3 (the floor), µs per call. */
function sqliteFloor(dbFile: string, statusId: string, columns: string[]): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    const list = columns.map((c) => `"${c}"`).join(', ');
    const page = db.prepare(`select ${list} from "bot_traces" where "status" = ? order by "createdAt" desc, "_id" desc limit ? offset ?`);
    for (let i = 0; i < 50; i++) page.all(statusId, 10, 0);
    const runs = 500;
    const start = process.cpuUsage();
    for (let i = 0; i < runs; i++) page.all(statusId, 10, 0);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / runs;
  } finally {
    db.close();
  }
}

async function start(side: Side, log: (line: string) => void, profileDir: string | null = null): Promise<void> {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, side.key)}`] : [];
  side.server = await spawnServer({ dataDir: side.dataDir, cwd: side.root, entry: [...profile, side.bundle], env: { LOG_LEVEL: 'warn', ADMIN_PASSWORD } });
  side.token = await login(side.server.baseUrl, ADMIN_PASSWORD);
  log(`[ab] ${side.label} listening on ${side.server.baseUrl}`);
}

export async function abCompare(options: AbOptions): Promise<AbResult> {
  const log = options.log ?? console.log;
  for (const key of options.only ?? []) {
    if (!(key in FIGURES)) throw new Error(`[ab] unknown figure "${key}" in BENCH_ONLY: use ${Object.keys(FIGURES).join(', ')}`);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-ab-'));
  const parent = options.worktreeCache ?? scratch;
  fs.mkdirSync(parent, { recursive: true });
  const worktrees: string[] = [];
  const sides: Side[] = [];
  try {
    for (const [key, commit] of [['a', options.commitA], ['b', options.commitB]] as const) {
      const { root, label } = checkout(commit, parent, log);
      if (root !== ROOT && !worktrees.includes(root)) worktrees.push(root);
      const dataDir = path.join(scratch, `data-${key}`);
      sides.push({ key, label: `${key.toUpperCase()} ${label}`, root, dataDir, server: null, token: '', bundle: path.join(root, 'dist-server', 'main.mjs') });
    }
    const rows = traceRows(options.rows);
    let ids: { statusIds: string[]; traceIds: string[] } | null = null;
    for (const side of sides) {
      // First start: the commit's own migrations create its tables and admin; then the rows go in.
      await start(side, log);
      await side.server!.kill('SIGTERM');
      ids = seedTraces(path.join(side.dataDir, 'forja.db'), rows);
      await start(side, log, options.cpuProfileDir ?? null);
    }
    const { statusIds, traceIds } = ids!;
    log(`[ab] seeded ${options.rows.toLocaleString('en')} bot traces on each side`);
    const q = (params: Record<string, string>) => `/api/bot-traces?${new URLSearchParams(params)}`;
    const page = { page: '1', limit: '10', orderBy: 'createdAt', order: 'desc' };
    const wanted = (key: keyof typeof FIGURES) => !options.only?.length || options.only.includes(key);
    const allLoads: [keyof typeof FIGURES, string[]][] = [
      ['byId', traceIds.map((id) => `/api/bot-traces/${id}`)],
      ['page', [q(page)]],
      ['filter', statusIds.map((s) => q({ ...page, filters: `status;eq;${s}` }))],
      ['search', ['refund', 'billing', 'login'].map((word) => q({ ...page, search: word }))],
    ];
    const loads: [string, string[]][] = allLoads.filter(([key]) => wanted(key)).map(([key, paths]) => [FIGURES[key], paths]);
    const exporting = wanted('export');
    const warm = { ...options, seconds: options.warmSeconds };
    if (warm.seconds > 0) for (const side of sides) for (const [, paths] of loads) await loadOnce(side, paths, warm);

    const loadBefore = os.loadavg().map((x) => x.toFixed(2)).join(' ');
    const samples = new Map<string, { a: Sample[]; b: Sample[] }>();
    const names = [...loads.map(([name]) => name), ...(exporting ? [FIGURES.export] : [])];
    for (const name of names) samples.set(name, { a: [], b: [] });
    // ABBA: each side goes first in every other round.
    const orderOf = (round: number) => (round % 2 === 0 ? [0, 1] : [1, 0]);
    // The floor is measured in every round, right after the filtered pages, so it and the pages
    // it divides run under the same load (measured once at the end it moved by 2x between runs).
    const floorDb = path.join(sides[1].dataDir, 'forja.db');
    const floorColumns = (new Database(floorDb, { readonly: true }).prepare('PRAGMA table_info("bot_traces")').all() as { name: string }[]).map((c) => c.name);
    const floorSamples: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      for (const [name, paths] of loads) {
        for (const i of orderOf(round)) samples.get(name)![i === 0 ? 'a' : 'b'].push(await loadOnce(sides[i], paths, options));
        if (name === FIGURES.filter) floorSamples.push(sqliteFloor(floorDb, statusIds[0], floorColumns));
      }
      log(`[ab] round ${round + 1}/${options.rounds} done (load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})`);
    }
    // Exports after every read round, not between them: a commit whose export runs as a job writes
    // the job's rows, which moves the database's change token and so drops every cached list total
    // (a search total is a scan of every row): the next round's pages would pay for the export.
    for (let round = 0; exporting && round < options.rounds; round++) {
      for (const i of orderOf(round)) samples.get(FIGURES.export)![i === 0 ? 'a' : 'b'].push(await exportOnce(sides[i]));
    }
    log(`[ab] exports done (load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})`);
    const loadAfter = os.loadavg().map((x) => x.toFixed(2)).join(' ');

    const figures: AbFigure[] = names.map((name) => {
      const { a, b } = samples.get(name)!;
      const am = { rps: median(a.map((s) => s.rps)), cpuUs: median(a.map((s) => s.cpuUs)) };
      const bm = { rps: median(b.map((s) => s.rps)), cpuUs: median(b.map((s) => s.cpuUs)) };
      const failures = [...a, ...b].reduce((sum, s) => sum + s.failures, 0);
      const spread = (of: (s: Sample) => number): [number, number] => {
        const ratios = a.map((sample, round) => of(b[round]) / of(sample));
        return [Math.min(...ratios), Math.max(...ratios)];
      };
      return { name, a: am, b: bm, rpsRatio: bm.rps / am.rps, cpuRatio: bm.cpuUs / am.cpuUs, rpsSpread: spread((s) => s.rps), cpuSpread: spread((s) => s.cpuUs), failures };
    });
    const filtered = samples.get(FIGURES.filter);
    // Each round's filtered page over that round's floor, then the median of those ratios.
    const overFloor = (side: Sample[]) => median(side.map((sample, round) => sample.cpuUs / floorSamples[round]));
    const floorUs = floorSamples.length > 0 ? median(floorSamples) : NaN;
    const floorRatio = filtered ? { a: overFloor(filtered.a), b: overFloor(filtered.b) } : { a: NaN, b: NaN };
    const result: AbResult = {
      labels: { a: sides[0].label, b: sides[1].label },
      figures,
      floorUs,
      floorRatio,
      load: { before: loadBefore, after: loadAfter },
      table: '',
    };
    result.table = formatTable(result, options);
    return result;
  } finally {
    await Promise.all(sides.map((side) => side.server?.kill('SIGTERM')));
    for (const root of options.worktreeCache ? [] : worktrees) {
      try {
        removeWorktree(root);
      } catch (error) {
        log(`[ab] could not remove the worktree ${root}: ${(error as Error).message}`);
      }
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const range = ([low, high]: [number, number]) => `${low.toFixed(2)}-${high.toFixed(2)}`;

export function formatTable(result: AbResult, options: Pick<AbOptions, 'rows' | 'rounds' | 'seconds' | 'connections'>): string {
  const n = (x: number) => Math.round(x).toLocaleString('en');
  const lines = [
    `A = ${result.labels.a}`,
    `B = ${result.labels.b}`,
    `${options.rows.toLocaleString('en')} bot traces on SQLite, ${options.rounds} rounds alternating A/B, ${options.seconds} s x ${options.connections} connections per figure; medians`,
    `load average (1/5/15 min) before ${result.load.before}, after ${result.load.after}`,
    '',
    '| figure | A req/s | B req/s | B/A req/s (per-round min-max) | A CPU µs/req | B CPU µs/req | B/A CPU (per-round min-max) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...result.figures.map((f) =>
      `| ${f.name}${f.failures ? ` (${f.failures} failed)` : ''} | ${n(f.a.rps)} | ${n(f.b.rps)} | ${f.rpsRatio.toFixed(2)} (${range(f.rpsSpread)}) | ` +
        `${f.a.cpuUs.toFixed(1)} | ${f.b.cpuUs.toFixed(1)} | ${f.cpuRatio.toFixed(2)} (${range(f.cpuSpread)}) |`),
    '',
    'export: "req" is one exported row.',
    Number.isNaN(result.floorUs)
      ? 'raw SQLite floor: not measured (the run has no filtered page figure)'
      : `raw SQLite floor (the filtered page query alone through better-sqlite3, measured in each round): median ${result.floorUs.toFixed(1)} µs CPU per call; ` +
        `filtered page CPU over the floor (median of the rounds): A ${result.floorRatio.a.toFixed(1)}x, B ${result.floorRatio.b.toFixed(1)}x`,
  ];
  return lines.join('\n');
}
