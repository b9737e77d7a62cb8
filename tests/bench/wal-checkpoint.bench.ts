// npx tsx tests/bench/wal-checkpoint.bench.ts — how long SQLite's WAL checkpoint holds the event
// loop after a large import commits, with the checkpoint where it was before (SQLite's automatic
// checkpoint inside the COMMIT, 'committing-connection') and in the worker thread ('worker',
// server/db/sqlite-checkpointer.ts). In this process, as the server runs it: the import is one
// Database.transaction of BENCH_IMPORT_ROWS (default 120,000) INSERTs into a table shaped like
// bot_traces (3 indexes), written in slices; meanwhile a timer probe every 5 ms records how late the
// event loop runs it (what /api/health waits for), and for BENCH_AFTER_SECONDS (default 5) after the
// commit a small write every 20 ms goes on (in the old way the next commit can pay the checkpoint).
// Prints, per mode and run (BENCH_RUNS, default 2): the longest stall during the import, across the
// commit and after it, the COMMIT's own time, the WAL file's size and what the worker did.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type CompiledQuery } from 'kysely';
import type { Database } from '../../server/db/database.ts';
import { openSqliteDatabase, sqliteCheckpointStatsOf, type SqliteDatabaseOptions } from '../../server/db/sqlite-database.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 120_000);
const AFTER_SECONDS = Number(process.env.BENCH_AFTER_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const PROBE_MS = 5;
const MODES: NonNullable<SqliteDatabaseOptions['checkpointIn']>[] = ['committing-connection', 'worker'];

/**
 * Lateness of a 5 ms timer, the longest per phase: the event loop's longest stall while it ran. A
 * stall that spans a phase change counts up to the change in the old phase and from it in the new,
 * so the synchronous COMMIT (between the 'commit' and 'after' marks) is its phase's own.
 */
function probe() {
  let phase = 'import';
  const longest = new Map<string, number>();
  const note = (name: string, ms: number) => longest.set(name, Math.max(longest.get(name) ?? 0, ms));
  let stopped = false;
  let segmentStart = performance.now() + PROBE_MS;
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    note(phase, now - segmentStart);
    segmentStart = now + PROBE_MS;
    setTimeout(tick, PROBE_MS);
  };
  setTimeout(tick, PROBE_MS);
  return {
    phase: (name: string) => {
      const now = performance.now();
      note(phase, now - segmentStart);
      segmentStart = Math.max(segmentStart, now);
      phase = name;
    },
    stop: () => {
      stopped = true;
      return longest;
    },
  };
}

const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function run(mode: (typeof MODES)[number], round: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-wal-'));
  const file = path.join(dir, 'forja.db');
  const database: Database = openSqliteDatabase(file, { checkpointIn: mode });
  try {
    const ddl = [
      sql`CREATE TABLE traces (_id TEXT PRIMARY KEY, chatId TEXT NOT NULL, userMessage TEXT, assistantMessage TEXT, tokens INTEGER, latency INTEGER, createdAt TEXT NOT NULL)`,
      sql`CREATE INDEX traces_chat ON traces (chatId)`,
      sql`CREATE INDEX traces_created ON traces (createdAt)`,
      sql`CREATE INDEX traces_tokens ON traces (tokens)`,
    ];
    for (const statement of ddl) await database.run(statement.compile(database.kysely));
    const start = Date.now();
    const queries: CompiledQuery[] = Array.from({ length: ROWS }, (_, i) =>
      sql`INSERT INTO traces VALUES (${`${round}-${i.toString(36).padStart(8, '0')}-${Math.random().toString(36).slice(2)}`}, ${`import-${i}`}, ${`Pregunta ${i} sobre precios y horarios del servicio`}, ${`Respuesta ${i}: abrimos de 9 a 18 h, de lunes a viernes.`}, ${i % 500}, ${i % 3000}, ${new Date(start + i).toISOString()})`.compile(
        database.kysely,
      ),
    );
    const probes = probe();
    const importStarted = performance.now();
    let commitMs = 0;
    // database.transaction commits with a synchronous COMMIT right after `work` resolves: timed from there.
    let workDone = 0;
    await database.transaction(async () => {
      await database.runAll(queries);
      probes.phase('commit');
      workDone = performance.now();
    });
    commitMs = performance.now() - workDone;
    probes.phase('after');
    const importSeconds = (performance.now() - importStarted) / 1000;
    const walAfterCommit = walBytes(file);
    const afterUntil = performance.now() + AFTER_SECONDS * 1000;
    let writes = 0;
    while (performance.now() < afterUntil) {
      await database.run(sql`INSERT INTO traces VALUES (${`after-${round}-${writes}`}, ${'after'}, ${'¿Horario?'}, ${'De 9 a 18 h.'}, ${1}, ${1}, ${new Date().toISOString()})`.compile(database.kysely));
      writes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const longest = probes.stop();
    const count = Number((await database.first(sql`SELECT count(*) AS n FROM traces`.compile(database.kysely)))!.n);
    if (count !== ROWS + writes) throw new Error(`${mode}: ${count} rows stored, ${ROWS + writes} written`);
    const stats = sqliteCheckpointStatsOf(database);
    const worker = stats ? `worker: ${stats.passive} PASSIVE, ${stats.restart} RESTART, ${stats.truncate} TRUNCATE, ${stats.failures} failures` : 'no worker';
    const at = (phase: string) => `${(longest.get(phase) ?? 0).toFixed(0)} ms`;
    return `| ${mode} | ${at('import')} | ${at('commit')} | ${at('after')} | ${commitMs.toFixed(0)} ms | ${importSeconds.toFixed(1)} s | ${mb(walAfterCommit)} -> ${mb(walBytes(file))} | ${worker} |`;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`WAL checkpoint: ${ROWS.toLocaleString('en')}-row import in one transaction, then ${AFTER_SECONDS} s of small writes every 20 ms; longest event-loop stall (5 ms timer lateness)`);
console.log('| checkpoint in | stall during import | across the commit | after the commit | COMMIT | import | WAL file (commit -> end) | checkpoints |');
console.log('|---|---|---|---|---|---|---|---|');
for (let round = 0; round < RUNS; round++) for (const mode of MODES) console.log(await run(mode, round));
