import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { createSqliteCheckpointer, type SqliteCheckpointLog } from '../../../server/db/sqlite-checkpointer.ts';
import { openSqliteDatabase, sqliteCheckpointStatsOf, sqliteHandleOf } from '../../../server/db/sqlite-database.ts';

/**
 * The WAL is copied into the database file by a worker thread (server/db/sqlite-checkpointer.ts),
 * never by a COMMIT on the event loop. Small thresholds here so a few MB of writes exercise it;
 * every wait is for an observed state (vi.waitFor with a generous timeout), never a fixed delay.
 */
const TUNING = { walBytes: 256 * 1024, checkDelayMs: 10, minIntervalMs: 20, idleMs: 200, truncateAboveBytes: 1024 * 1024, restartAboveBytes: 1024 * 1024, safetyCheckMs: 60_000 };
const WAIT = { timeout: 30_000, interval: 20 };
const PAYLOAD = 'x'.repeat(400);

let dir: string;
let file: string;
let database: Database;

const walSize = () => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
const insert = (n: number) => sql`INSERT INTO rows_t (n, payload) VALUES (${n}, ${PAYLOAD})`.compile(database.kysely);
const countRows = async () => Number((await database.first(sql`SELECT count(*) AS c FROM rows_t`.compile(database.kysely)))!.c);
const stats = () => sqliteCheckpointStatsOf(database)!;
/** `count` rows in one transaction, as an import writes them (the transaction's connection, in slices). */
const importRows = (from: number, count: number) =>
  database.transaction(() => database.runAll(Array.from({ length: count }, (_, i) => insert(from + i))));

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-wal-'));
  file = path.join(dir, 'forja.db');
  database = openSqliteDatabase(file, { checkpointTuning: TUNING });
  await database.run(sql`CREATE TABLE rows_t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, payload TEXT NOT NULL)`.compile(database.kysely));
  await database.run(sql`CREATE INDEX rows_t_n ON rows_t (n)`.compile(database.kysely));
});

afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQLite WAL checkpoints in a worker thread', () => {
  it("turns SQLite's automatic checkpoint off on the server's connections and starts no thread for a small WAL", async () => {
    expect(sqliteHandleOf(database)!.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await database.run(insert(1));
    // Past the commit check: a WAL under the threshold starts no worker.
    await new Promise((resolve) => setTimeout(resolve, TUNING.checkDelayMs * 5));
    expect(stats()).toMatchObject({ workerStarts: 0, passive: 0 });
  });

  it('copies a large commit into the database file from the worker, then truncates the idle WAL', async () => {
    const dbBytesBefore = fs.statSync(file).size;
    await importRows(0, 6_000);
    expect(walSize()).toBeGreaterThan(TUNING.truncateAboveBytes);

    // Nothing on the event loop checkpoints (wal_autocheckpoint=0): the pages reach the database file through the worker.
    await vi.waitFor(() => expect(stats().passive).toBeGreaterThan(0), WAIT);
    await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(dbBytesBefore + 2 * 1024 * 1024), WAIT);
    expect(stats().workerStarts).toBe(1);

    // Idle and over truncateAboveBytes: cut to nothing by the worker (TRUNCATE).
    await vi.waitFor(() => {
      expect(stats().truncate).toBeGreaterThan(0);
      expect(walSize()).toBe(0);
    }, WAIT);
    expect(stats().failures).toBe(0);
    expect(await countRows()).toBe(6_000);
    const reopened = new BetterSqlite3(file, { readonly: true });
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      reopened.close();
    }
  }, 60_000);

  it('keeps the WAL file bounded over a long run of writes that never pauses (RESTART after the checkpoint)', async () => {
    // One small commit after another, one per turn of the event loop: a commit lands during every
    // checkpoint, so writers never get to reuse the log on their own, and without the RESTART the
    // file grew with every commit (427 MB after 45,000 of these).
    const total = 30_000;
    let largest = 0;
    for (let written = 0; written < total; ) {
      await database.run(insert(written++));
      await new Promise((resolve) => setImmediate(resolve));
      if (written % 100 === 0) largest = Math.max(largest, walSize());
    }
    largest = Math.max(largest, walSize());
    expect(await countRows()).toBe(total);
    expect(stats().restart).toBeGreaterThan(0);
    // Each commit appends at least two frames (the table's leaf page and the index's, 4 KiB and a
    // 24-byte header each): at least 247 MB went through the log, and the file never held a quarter.
    const appended = total * 2 * (4096 + 24);
    expect(largest).toBeLessThan(appended / 4);
    expect(stats().failures).toBe(0);
  }, 120_000);

  it("holds the writes for a TRUNCATE once the WAL file reaches maxWalBytes, however slow the worker's own checkpoints", async () => {
    // The worker's own cycle is all but off (one PASSIVE a minute, never a RESTART), as it is in
    // effect when a loaded machine starves its thread: only the main thread's size check bounds the file.
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-wal-'));
    file = path.join(dir, 'forja.db');
    const maxWalBytes = 2 * 1024 * 1024;
    database = openSqliteDatabase(file, {
      checkpointTuning: { ...TUNING, minIntervalMs: 60_000, idleMs: 60_000, restartAboveBytes: 1024 * 1024 * 1024, maxWalBytes },
    });
    await database.run(sql`CREATE TABLE rows_t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, payload TEXT NOT NULL)`.compile(database.kysely));
    await database.run(sql`CREATE INDEX rows_t_n ON rows_t (n)`.compile(database.kysely));
    const total = 12_000;
    let largest = 0;
    for (let written = 0; written < total; ) {
      await database.run(insert(written++));
      await new Promise((resolve) => setImmediate(resolve));
      if (written % 50 === 0) largest = Math.max(largest, walSize());
    }
    largest = Math.max(largest, walSize());
    expect(await countRows()).toBe(total);
    // About 98 MB went through the log; the file was cut back each time it reached the bound.
    expect(stats().sizeHolds).toBeGreaterThan(2);
    expect(stats().truncate).toBeGreaterThan(2);
    expect(stats().restart).toBe(0);
    // The bound plus the writes of one size check (a few hundred commits at most, even on a loaded machine).
    expect(largest).toBeLessThan(maxWalBytes + 8 * 1024 * 1024);
    expect(stats().failures).toBe(0);
  }, 120_000);

  it('reads and writes stay correct while the worker checkpoints', async () => {
    await importRows(0, 8_000);
    let expected = 8_000;
    const seen: number[] = [];
    // Small writes, point reads, counts and a streamed read go on until the worker reports a checkpoint, and a while after.
    const streamed = (async () => {
      let rows = 0;
      for await (const batch of database.stream(sql`SELECT n, payload FROM rows_t ORDER BY id`.compile(database.kysely), 500)) {
        for (const row of batch.rows) if (row[1] !== PAYLOAD) throw new Error(`row ${String(row[0])} read back wrong`);
        rows += batch.rows.length;
      }
      return rows;
    })();
    let rounds = 0;
    let checkpointedAt = -1;
    // Until three checkpoints ran: the later ones start while this loop is writing and reading.
    while (checkpointedAt < 0 || rounds < checkpointedAt + 50 || stats().passive < 3) {
      if (checkpointedAt < 0 && stats().passive > 0) checkpointedAt = rounds;
      const n = 100_000 + rounds;
      if (rounds % 3 === 0) await importRows(n * 10, 5);
      else await database.run(insert(n));
      expected += rounds % 3 === 0 ? 5 : 1;
      const count = await countRows();
      seen.push(count);
      expect(count).toBe(expected);
      const row = await database.first(sql`SELECT payload FROM rows_t WHERE n = ${rounds % 3 === 0 ? n * 10 : n}`.compile(database.kysely));
      expect(row?.payload).toBe(PAYLOAD);
      rounds++;
      // One request per turn of the event loop, as a server gets them (timers and the worker's messages run in between).
      await new Promise((resolve) => setImmediate(resolve));
      if (rounds > 20_000) throw new Error(`the worker reported ${stats().passive} checkpoints in ${rounds} rounds`);
    }
    expect(await streamed).toBeGreaterThanOrEqual(8_000);
    expect(seen.every((count, i) => i === 0 || count > seen[i - 1]!)).toBe(true);
    expect(sqliteHandleOf(database)!.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(stats().failures).toBe(0);
  }, 120_000);

  it('copies what an open reader held back once it ends, without another commit asking', async () => {
    await importRows(0, 1_000);
    // A streamed read (an export) opened before the import keeps its snapshot: frames after it cannot be copied yet.
    const reading = database.stream(sql`SELECT n FROM rows_t`.compile(database.kysely), 100)[Symbol.asyncIterator]();
    expect((await reading.next()).done).toBe(false);
    await importRows(1_000, 6_000);
    await vi.waitFor(() => {
      expect(stats().passive).toBeGreaterThan(0);
      expect(stats().lastCopied).toBeLessThan(stats().lastFrames);
    }, WAIT);
    await reading.return!(undefined);
    // No write from here on: the worker tries again by itself.
    await vi.waitFor(() => expect(stats().lastCopied).toBe(stats().lastFrames), WAIT);
    expect(await countRows()).toBe(7_000);
  }, 60_000);

  it('closes cleanly while a checkpoint is under way: the worker ends, the WAL is folded in and removed, the data is whole', async () => {
    await importRows(0, 10_000);
    await vi.waitFor(() => expect(stats().workerStarts).toBe(1), WAIT);
    // Closed right after the worker was asked: it finishes (or never starts) its checkpoint, then its connection, the last, folds the rest in.
    await database.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    database = openSqliteDatabase(file, { checkpointTuning: TUNING });
    expect(await countRows()).toBe(10_000);
    expect(sqliteHandleOf(database)!.pragma('integrity_check', { simple: true })).toBe('ok');
  }, 60_000);

  it('an in-memory database works as before, without a worker', async () => {
    const memory = openSqliteDatabase(':memory:');
    try {
      await memory.run(sql`CREATE TABLE t (v INTEGER)`.compile(memory.kysely));
      await memory.runAll([1, 2, 3].map((v) => sql`INSERT INTO t (v) VALUES (${v})`.compile(memory.kysely)));
      expect(await memory.first(sql`SELECT sum(v) AS s FROM t`.compile(memory.kysely))).toEqual({ s: 6 });
      expect(sqliteCheckpointStatsOf(memory)).toBeNull();
    } finally {
      await memory.close();
    }
  });

  it("'committing-connection' keeps SQLite's own checkpoint (how it was before) and starts no worker", async () => {
    const other = path.join(dir, 'before.db');
    const before = openSqliteDatabase(other, { checkpointIn: 'committing-connection' });
    try {
      expect(sqliteHandleOf(before)!.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      expect(sqliteCheckpointStatsOf(before)).toBeNull();
    } finally {
      await before.close();
    }
  });
});

describe('RESTART and TRUNCATE under held writes', () => {
  it("run only while the database holds its own writes (never meeting them at SQLite's lock), and wait for a later turn when it cannot", async () => {
    // A WAL written by a connection of its own, as the server's would be (automatic checkpoint off).
    const other = path.join(dir, 'held.db');
    const writer = new BetterSqlite3(other);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (v TEXT)');
    const insertRows = writer.transaction((count: number) => {
      for (let i = 0; i < count; i++) writer.prepare('INSERT INTO t (v) VALUES (?)').run(PAYLOAD);
    });
    insertRows(4_000);
    const events: string[] = [];
    let refuse = true;
    const checkpointer = createSqliteCheckpointer(other, {
      ...TUNING,
      onGiveUp: () => events.push('gave up'),
      holdWrites: async (work) => {
        if (refuse) {
          // A transaction holds the lock: the worker is told so and goes on with PASSIVE checkpoints.
          refuse = false;
          events.push('refused');
          return false;
        }
        events.push('held');
        const before = checkpointer.stats();
        await work();
        const after = checkpointer.stats();
        events.push(after.restart + after.truncate > before.restart + before.truncate ? 'ran under held writes' : 'nothing ran');
        return true;
      },
    });
    try {
      checkpointer.noteCommit();
      await vi.waitFor(() => expect(events).toContain('ran under held writes'), WAIT);
      expect(events.slice(0, 3)).toEqual(['refused', 'held', 'ran under held writes']);
      // The refused turn ran nothing; the held one ran a RESTART (or, idle by then, a TRUNCATE).
      const { restart, truncate, failures } = checkpointer.stats();
      expect({ ranUnderHeldWrites: restart + truncate, failures }).toEqual({ ranUnderHeldWrites: 1, failures: 0 });
      // The next writer reuses the log from its start: a few frames in it, not the 4,000 rows' hundreds.
      insertRows(10);
      const [{ log }] = writer.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      expect(log).toBeLessThan(20);
    } finally {
      await checkpointer.close();
      writer.close();
    }
    expect(events).not.toContain('gave up');
  }, 60_000);
});

describe('the checkpoint worker failing', () => {
  it('logs each failure, never throws into the server, and after three gives SQLite its own checkpoint back', async () => {
    // A WAL file without its database: the worker's connection cannot open (fileMustExist).
    const missing = path.join(dir, 'missing.db');
    fs.writeFileSync(`${missing}-wal`, Buffer.alloc(8 * 1024));
    const warnings: string[] = [];
    const errors: string[] = [];
    const log: SqliteCheckpointLog = { warn: (_, message) => warnings.push(message), error: (_, message) => errors.push(message) };
    const onGiveUp = vi.fn();
    const checkpointer = createSqliteCheckpointer(missing, { walBytes: 1024, checkDelayMs: 5, restartPauseMs: 10, safetyCheckMs: 60_000, log, onGiveUp });
    try {
      await vi.waitFor(() => {
        checkpointer.noteCommit();
        expect(onGiveUp).toHaveBeenCalledTimes(1);
      }, WAIT);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/WAL checkpoint worker stopped with an error: .*(unable to open|no such file|SQLITE_CANTOPEN)/i);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/after 3 failures SQLite's own WAL checkpoint is back on/);
      expect(checkpointer.stats()).toMatchObject({ gaveUp: true, failures: 3, workerStarts: 3 });
      // Given up: further commits start nothing.
      const timers = vi.spyOn(globalThis, 'setTimeout');
      checkpointer.noteCommit();
      expect(timers).not.toHaveBeenCalled();
      timers.mockRestore();
      expect(checkpointer.stats().workerStarts).toBe(3);
    } finally {
      await checkpointer.close();
    }
  }, 60_000);
});
