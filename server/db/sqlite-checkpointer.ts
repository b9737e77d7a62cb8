import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies SQLite's write-ahead log into the database file from a worker thread with a connection
 * of its own, so no checkpoint runs on the event loop. SQLite's automatic checkpoint runs inside
 * the COMMIT that grows the WAL past 1,000 pages, on the committing connection: after a
 * 120,000-row import that was about a second of event loop (health checks waited;
 * docs/figures.md). The server's connections turn it off (wal_autocheckpoint=0) and note each commit
 * here instead.
 *
 * - After commits (coalesced, checkDelayMs) and every safetyCheckMs, the WAL file's size is read
 *   (async fs.stat); at walBytes or more the worker is asked for a PASSIVE checkpoint, which never
 *   takes a lock that readers or writers wait for (https://www.sqlite.org/wal.html). The worker
 *   starts on the first such request: a small database (most tests) never starts a thread.
 * - A writer reuses the WAL from its start only if, when it begins, every frame was copied. Under
 *   a steady stream of writes a commit lands during every checkpoint, so that never happens and
 *   the log grew without bound (125 MB after 27,000 small inserts in a test; every read slows down
 *   as the log grows). So when the log holds restartAboveBytes or more after a PASSIVE, the worker
 *   runs RESTART: it copies the frames committed meanwhile and leaves the log for the next writer
 *   to reuse from its start. RESTART takes SQLite's write lock and syncs the files while holding
 *   it (tens to hundreds of milliseconds on a busy disk), and a write on the main thread meeting
 *   that lock sleeps in SQLite's busy handler, on the event loop (a first try without this held
 *   health checks 157 to 265 ms). So the worker asks first ('hold-writes') and the Database holds
 *   its own writes at its asynchronous write gate (holdWrites: they wait as behind a transaction,
 *   the event loop runs) until the RESTART reports. In the worker busy_timeout=0: a reader or
 *   another process's writer present, it gives up at once and is tried again later.
 * - Those checkpoints copy while writes go on, so they keep up only while the worker copies faster
 *   than the server appends and gets the CPU to do so. On a loaded machine neither holds (a CI run
 *   saw the log reach 80 MB where a quiet one stays under 20), and nothing bounded the file. So the
 *   main thread watches the WAL file's size itself: at maxWalBytes or more it holds the database's
 *   writes and asks the worker for a TRUNCATE under them (copy everything, cut the file to nothing).
 *   That is backpressure, as SQLite's own checkpoint in the COMMIT is, except that the writes wait
 *   asynchronously and the event loop runs. It depends on no timing of the worker: the file stays
 *   within maxWalBytes and the writes of one check.
 * - The file itself never shrinks that way. After a large transaction it stays as large, so when
 *   no checkpoint was asked for idleMs and the file is over truncateAboveBytes, the worker runs
 *   TRUNCATE the same way, right after a PASSIVE that copied everything.
 *   journal_size_limit is not used: it truncates inside the next COMMIT, on the main thread, and
 *   cutting a synced 34 MB WAL took 30 to 45 ms there (400 MB: 290 ms). A RESTART or TRUNCATE moves
 *   the server connection's data_version once (its page cache is dropped; cached totals recount).
 * - A worker that fails (cannot start, crashes) is logged and started again on the next request
 *   after a pause; after MAX_FAILURES in a row the database goes back to SQLite's own checkpoint
 *   (onGiveUp), so the WAL never grows without bound. A checkpoint that fails in a running worker
 *   (a full disk) is logged at most once a minute and tried again on the next request.
 * - close() lets a checkpoint under way finish, closes the worker's connection (after the server's
 *   own: the last connection to close checkpoints the rest and removes the WAL, here in the worker)
 *   and ends the thread; a worker that does not end within CLOSE_TIMEOUT_MS is terminated.
 */
export interface SqliteCheckpointOptions {
  /** WAL file size from which a checkpoint is asked for (default 4 MiB: SQLite's 1,000 pages of 4 KiB). */
  walBytes?: number;
  /** Wait after a commit before reading the WAL's size, so a burst of commits makes one check. */
  checkDelayMs?: number;
  /** Period of the check that does not wait for a commit (writes through other connections or processes). */
  safetyCheckMs?: number;
  /** Least time between two checkpoints of the worker. */
  minIntervalMs?: number;
  /** Time without a checkpoint request after which an oversized WAL file is truncated. */
  idleMs?: number;
  /** WAL file size above which an idle worker truncates it. */
  truncateAboveBytes?: number;
  /** Log size (frames in use) from which a RESTART follows the PASSIVE checkpoint. */
  restartAboveBytes?: number;
  /** WAL file size at which the database's writes wait for a TRUNCATE (the bound the file keeps). */
  maxWalBytes?: number;
  /** Pause before starting a worker again after a failure, times the consecutive failures. */
  restartPauseMs?: number;
}

/** Where the checkpointer reports its failures (pino's logger fits). */
export interface SqliteCheckpointLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SqliteCheckpointStats {
  /** Worker threads started so far. */
  workerStarts: number;
  /** Checkpoints that ran, by mode, and how many of them could not finish (a reader or writer in the way). */
  passive: number;
  restart: number;
  truncate: number;
  busy: number;
  /** TRUNCATEs the main thread asked for under held writes because the file reached maxWalBytes. */
  sizeHolds: number;
  /** Frames in the WAL and frames copied, as the last checkpoint reported them. */
  lastFrames: number;
  lastCopied: number;
  /** Failures: checkpoints that failed in the worker, and workers that crashed or could not start. */
  failures: number;
  /** True once the checkpointer gave up and SQLite's own checkpoint is back on. */
  gaveUp: boolean;
}

/**
 * Runs `work` while the database's own writes wait (asynchronously) for it, so a RESTART or
 * TRUNCATE never meets one of them at SQLite's write lock; resolves to false without running it
 * when a transaction or bulk write holds the lock now (the worker tries again later rather than
 * wait: by then the frames to copy under the held writes would be the whole transaction).
 */
export type HoldWrites = (work: () => Promise<void>) => Promise<boolean>;

export interface SqliteCheckpointer {
  /** A write transaction committed on one of the server's connections. */
  noteCommit(): void;
  stats(): SqliteCheckpointStats;
  /** Ends the worker; call after closing the server's own connections. */
  close(): Promise<void>;
}

const DEFAULTS: Required<SqliteCheckpointOptions> = {
  walBytes: 4 * 1024 * 1024,
  checkDelayMs: 200,
  safetyCheckMs: 30_000,
  minIntervalMs: 1_000,
  idleMs: 5_000,
  truncateAboveBytes: 16 * 1024 * 1024,
  restartAboveBytes: 16 * 1024 * 1024,
  maxWalBytes: 256 * 1024 * 1024,
  restartPauseMs: 5_000,
};
/** Consecutive failures of the worker itself (could not start, crashed) after which SQLite's own checkpoint is turned back on. */
const MAX_FAILURES = 3;
const ERROR_LOG_EVERY_MS = 60_000;
const CLOSE_TIMEOUT_MS = 10_000;
/** Longest the database's writes are held for a RESTART or TRUNCATE that does not report (a stuck disk). */
const HOLD_TIMEOUT_MS = 10_000;
const WORKER_HEAP_MB = 32;

// Plain CommonJS run with eval, so it works the same under tsx, vitest and the esbuild bundle (no
// .ts file to load, nothing to add to scripts/build-server.ts); better-sqlite3 is resolved here and
// passed in by absolute path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { driverPath, file, minIntervalMs, idleMs, truncateAboveBytes, restartAboveBytes } = workerData;
const Database = require(driverPath);
let db;
try {
  db = new Database(file, { fileMustExist: true });
} catch (error) {
  // better-sqlite3's SqliteError reaches the main thread as { code } alone: a plain Error keeps the text.
  throw new Error('could not open ' + file + ': ' + error.message + ' (' + error.code + ')');
}
// Never wait: PASSIVE takes no lock anyone waits for, and a RESTART or TRUNCATE that meets a
// reader or a writer falls back at once instead of holding SQLite's write lock while it waits.
db.pragma('busy_timeout = 0');
// A WAL frame is a page and its 24-byte header.
const frameBytes = Number(db.pragma('page_size', { simple: true })) + 24;
let lastRequest = 0;
let lastRun = 0;
let passiveTimer = null;
let retryTimer = null;
let idleTimer = null;
let closed = false;
/** The RESTART or TRUNCATE waiting for the main thread to hold its writes ('writes-held'). */
let gated = null;
const walSize = () => { try { return fs.statSync(file + '-wal').size; } catch { return 0; } };
function checkpoint(mode) {
  const started = performance.now();
  try {
    const [result] = db.pragma('wal_checkpoint(' + mode + ')');
    parentPort.postMessage({ type: 'checkpointed', mode, busy: result.busy !== 0, frames: result.log, copied: result.checkpointed, ms: performance.now() - started });
    return result;
  } catch (error) {
    parentPort.postMessage({ type: 'error', mode, message: error && error.message ? error.message : String(error), code: error && error.code });
    return null;
  }
}
function scheduleIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(idle, idleMs);
}
/** Asks the main thread to hold its writes for a RESTART or TRUNCATE (they take SQLite's write lock). */
function askForWrites(mode) {
  gated = mode;
  parentPort.postMessage({ type: 'hold-writes', mode });
}
function passive() {
  passiveTimer = null;
  if (closed || gated) return;
  lastRun = Date.now();
  const copied = checkpoint('PASSIVE');
  if (copied && copied.busy === 0 && copied.log * frameBytes >= restartAboveBytes) askForWrites('RESTART');
  else if (walSize() > truncateAboveBytes) scheduleIdle();
  // Frames left (a reader on an older snapshot, an export, kept them from being copied): again in
  // a while even if no commit asks for it.
  clearTimeout(retryTimer);
  if (copied && copied.checkpointed < copied.log && !gated) {
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!passiveTimer) passive();
    }, Math.max(minIntervalMs, 1000));
  }
}
function idle() {
  idleTimer = null;
  if (closed || gated) return;
  if (Date.now() - lastRequest < idleMs) return scheduleIdle();
  if (walSize() <= truncateAboveBytes) return;
  // Everything copied first, without locks: under the held writes TRUNCATE only resets and cuts the file.
  const copied = checkpoint('PASSIVE');
  if (!copied || copied.busy !== 0 || copied.log !== copied.checkpointed) return scheduleIdle();
  askForWrites('TRUNCATE');
}
/** Runs the checkpoint the main thread holds its writes for (the one asked for, or its own TRUNCATE); its 'checkpointed' (or 'error') message lets the writes go. */
function whileWritesHeld(mode) {
  gated = null;
  const result = checkpoint(mode);
  if (walSize() > truncateAboveBytes || !result || result.busy !== 0) scheduleIdle();
}
parentPort.on('message', (message) => {
  if (closed) return;
  if (message.type === 'checkpoint') {
    lastRequest = Date.now();
    if (!passiveTimer) passiveTimer = setTimeout(passive, Math.max(0, lastRun + minIntervalMs - Date.now()));
  } else if (message.type === 'writes-held') {
    whileWritesHeld(message.mode);
  } else if (message.type === 'writes-busy') {
    // A transaction holds the lock: tried again after the next PASSIVE, or when idle.
    gated = null;
    scheduleIdle();
  } else if (message.type === 'close') {
    closed = true;
    clearTimeout(passiveTimer);
    clearTimeout(retryTimer);
    clearTimeout(idleTimer);
    db.close();
    parentPort.close();
  }
});
`;

interface WorkerMessage {
  type: 'checkpointed' | 'error' | 'hold-writes';
  mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE';
  busy?: boolean;
  frames?: number;
  copied?: number;
  ms?: number;
  message?: string;
  code?: string;
}

const localRequire = createRequire(import.meta.url);

export const consoleCheckpointLog: SqliteCheckpointLog = {
  warn: (details, message) => console.warn(`[sqlite] ${message}`, details),
  error: (details, message) => console.error(`[sqlite] ${message}`, details),
};

/**
 * The checkpointer of the SQLite database `file` (in WAL mode, its connections opened with
 * wal_autocheckpoint=0). `onGiveUp` turns SQLite's own checkpoint back on for those connections.
 */
export function createSqliteCheckpointer(
  file: string,
  options: SqliteCheckpointOptions & { log?: SqliteCheckpointLog; onGiveUp: () => void; holdWrites?: HoldWrites },
): SqliteCheckpointer {
  const settings = { ...DEFAULTS, ...options };
  const log = options.log ?? consoleCheckpointLog;
  const walFile = `${file}-wal`;
  const stats: SqliteCheckpointStats = { workerStarts: 0, passive: 0, restart: 0, truncate: 0, busy: 0, sizeHolds: 0, lastFrames: 0, lastCopied: 0, failures: 0, gaveUp: false };
  let worker: Worker | null = null;
  let workerExit: Promise<void> = Promise.resolve();
  let consecutiveFailures = 0;
  let restartAfter = 0;
  let checkpointErrors = 0;
  let lastErrorLogged = -Infinity;
  let checkTimer: NodeJS.Timeout | null = null;
  let safetyTimer: NodeJS.Timeout | null = null;
  let closing = false;
  /** Lets the held writes go: set while a RESTART or TRUNCATE runs under them. */
  let releaseWrites: (() => void) | null = null;
  /** A hold is asked for or under way: one at a time (releaseWrites serves one). */
  let holding = false;

  const holdWritesFor = async (target: Worker, mode: 'RESTART' | 'TRUNCATE') => {
    if (holding) {
      // The other hold copies these frames too; the worker asks again later if it still needs to.
      target.postMessage({ type: 'writes-busy' });
      return;
    }
    holding = true;
    const hold: HoldWrites = options.holdWrites ?? (async (work) => (await work(), true));
    const underHeldWrites = () =>
      new Promise<void>((resolve) => {
        if (worker !== target || closing) return resolve();
        const timer = setTimeout(() => {
          log.warn({ file, mode }, `A WAL checkpoint (${mode}) did not report within ${HOLD_TIMEOUT_MS / 1000} s; the database's writes go on`);
          releaseWrites?.();
        }, HOLD_TIMEOUT_MS);
        releaseWrites = () => {
          clearTimeout(timer);
          releaseWrites = null;
          resolve();
        };
        target.postMessage({ type: 'writes-held', mode });
      });
    let held = false;
    try {
      held = await hold(underHeldWrites);
    } catch (error) {
      log.warn({ err: error, file, mode }, `Holding the database's writes for a WAL checkpoint (${mode}) failed: ${(error as Error).message}`);
    }
    holding = false;
    // Not held: the worker stops waiting and tries again later.
    if (!held && worker === target && !closing) target.postMessage({ type: 'writes-busy' });
  };

  const fail = (details: object, message: string) => {
    stats.failures++;
    consecutiveFailures++;
    restartAfter = Date.now() + settings.restartPauseMs * consecutiveFailures;
    if (consecutiveFailures < MAX_FAILURES) {
      log.warn({ ...details, file, failures: consecutiveFailures }, `${message}; the next checkpoint request tries again`);
      return;
    }
    if (stats.gaveUp) return;
    stats.gaveUp = true;
    log.error(
      { ...details, file, failures: consecutiveFailures },
      `${message}; after ${MAX_FAILURES} failures SQLite's own WAL checkpoint is back on (it runs on the event loop after large commits). Restart the server to try the worker again`,
    );
    stopWorker();
    if (safetyTimer) clearInterval(safetyTimer);
    options.onGiveUp();
  };

  const startWorker = (): Worker | null => {
    if (worker) return worker;
    if (closing || stats.gaveUp || Date.now() < restartAfter) return null;
    let started: Worker;
    try {
      started = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          driverPath: localRequire.resolve('better-sqlite3'),
          file,
          minIntervalMs: settings.minIntervalMs,
          idleMs: settings.idleMs,
          truncateAboveBytes: settings.truncateAboveBytes,
          restartAboveBytes: settings.restartAboveBytes,
        },
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
    } catch (error) {
      fail({ err: error }, 'The WAL checkpoint worker could not start');
      return null;
    }
    stats.workerStarts++;
    // Never what keeps the process alive: close() ends it, and a process that forgets to close exits anyway.
    started.unref();
    started.on('message', (message: WorkerMessage) => {
      if (message.type === 'hold-writes') {
        void holdWritesFor(started, message.mode as 'RESTART' | 'TRUNCATE');
        return;
      }
      if (message.mode !== 'PASSIVE') releaseWrites?.();
      if (message.type === 'error') {
        // The worker runs: a checkpoint that fails (a full disk, an I/O error) is what SQLite's own
        // checkpoint would meet too. Logged (at most once a minute), retried on the next request.
        stats.failures++;
        checkpointErrors++;
        if (Date.now() - lastErrorLogged >= ERROR_LOG_EVERY_MS) {
          log.warn(
            { mode: message.mode, code: message.code, file, errorsSinceLastLog: checkpointErrors },
            `A WAL checkpoint (${message.mode}) failed in the worker: ${message.message}; the next request tries again`,
          );
          lastErrorLogged = Date.now();
          checkpointErrors = 0;
        }
        return;
      }
      consecutiveFailures = 0;
      if (message.mode === 'TRUNCATE') stats.truncate++;
      else if (message.mode === 'RESTART') stats.restart++;
      else stats.passive++;
      if (message.busy) stats.busy++;
      stats.lastFrames = message.frames ?? 0;
      stats.lastCopied = message.copied ?? 0;
    });
    // An uncaught error (the connection could not open, out of memory) ends the thread: 'exit' follows.
    let errored = false;
    started.on('error', (error: Partial<NodeJS.ErrnoException>) => {
      errored = true;
      fail({ err: error }, `The WAL checkpoint worker stopped with an error: ${error.message ?? error.code ?? String(error)}`);
    });
    workerExit = new Promise((resolve) =>
      started.once('exit', (code) => {
        if (worker === started) worker = null;
        releaseWrites?.();
        if (!closing && !errored && code !== 0) fail({ code }, `The WAL checkpoint worker exited with code ${code}`);
        resolve();
      }),
    );
    worker = started;
    return started;
  };

  function stopWorker(): void {
    const running = worker;
    if (!running) return;
    // Held open until it ends: a process awaiting close() with nothing else to do would exit
    // first, cutting the worker's last checkpoint short (safe, but the WAL is left behind).
    running.ref();
    running.postMessage({ type: 'close' });
    const timer = setTimeout(() => {
      log.warn({ file }, `The WAL checkpoint worker did not end within ${CLOSE_TIMEOUT_MS / 1000} s of close; it was terminated`);
      void running.terminate();
    }, CLOSE_TIMEOUT_MS);
    timer.unref();
    void workerExit.then(() => clearTimeout(timer));
  }

  const check = async () => {
    checkTimer = null;
    if (closing || stats.gaveUp) return;
    let size = 0;
    try {
      size = (await fs.promises.stat(walFile)).size;
    } catch {
      return; // no WAL file (nothing written yet, or the last connection removed it)
    }
    if (size < settings.walBytes || closing) return;
    const running = startWorker();
    if (!running) return;
    if (size >= settings.maxWalBytes && !holding) {
      stats.sizeHolds++;
      void holdWritesFor(running, 'TRUNCATE');
      return;
    }
    running.postMessage({ type: 'checkpoint' });
  };

  safetyTimer = setInterval(() => void check(), settings.safetyCheckMs);
  safetyTimer.unref();

  return {
    noteCommit() {
      if (checkTimer || closing || stats.gaveUp) return;
      checkTimer = setTimeout(() => void check(), settings.checkDelayMs);
      checkTimer.unref();
    },
    stats: () => ({ ...stats }),
    async close() {
      closing = true;
      if (safetyTimer) clearInterval(safetyTimer);
      if (checkTimer) clearTimeout(checkTimer);
      checkTimer = null;
      stopWorker();
      await workerExit;
    },
  };
}
