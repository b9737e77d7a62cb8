import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database, Row, RowBatch } from './database.ts';
import { createSqliteCheckpointer, type SqliteCheckpointer, type SqliteCheckpointLog, type SqliteCheckpointOptions, type SqliteCheckpointStats } from './sqlite-checkpointer.ts';
import { sqliteDialect } from './sqlite-dialect.ts';
import { TransactionTracker } from './transaction-tracker.ts';

/** Prepared statements kept per SQL text; the entity queries are a small, fixed set of shapes. */
const STATEMENT_CACHE_LIMIT = 1000;
/**
 * A runAll with more statements than this (an import) is written in slices on a connection of
 * its own: one synchronous transaction of 120,000 inserts held the event loop for seconds (about
 * 55 µs per row), so health checks and every other request waited.
 */
export const BULK_WRITE_STATEMENTS = 1000;
/** Longest stretch of a bulk write between two turns of the event loop. */
const BULK_SLICE_MS = 8;
/** Longest synchronous read of one streamed batch (the consumer then formats and writes it). */
const STREAM_SLICE_MS = 6;

const allObjects = (statement: BetterSqlite3.Statement, values: unknown[]) => statement.all(values) as Row[];
const firstObject = (statement: BetterSqlite3.Statement, values: unknown[]) => statement.get(values) as Row | undefined;
/** Column names per prepared statement: one list each, which decodeBatch also knows its reader by. */
const statementColumns = new WeakMap<BetterSqlite3.Statement, readonly string[]>();
function allArrays(statement: BetterSqlite3.Statement, values: unknown[]): RowBatch {
  let columns = statementColumns.get(statement);
  if (!columns) statementColumns.set(statement, (columns = statement.columns().map((column) => column.name)));
  // The statement is shared with all() and first(): raw only for this synchronous call.
  statement.raw(true);
  try {
    return { columns, rows: statement.all(values) as unknown[][] };
  } finally {
    statement.raw(false);
  }
}

/** SQLite's default: the committing connection checkpoints once the WAL reaches 1,000 pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** Returns the journal mode in force ('wal', or 'memory' for an in-memory database). */
function configure(db: BetterSqlite3.Database, autoCheckpointPages: number): string {
  const journalMode = String(db.pragma('journal_mode = WAL', { simple: true }));
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Safe with WAL (a crash can lose the last commits, never corrupt) and much faster writes.
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${autoCheckpointPages}`);
  return journalMode;
}

export interface SqliteDatabaseOptions {
  /** Where the WAL checkpoint worker reports failures (the server's logger); default the console. */
  log?: SqliteCheckpointLog;
  /**
   * Who copies the WAL into the database file. 'worker' (default): a worker thread
   * (sqlite-checkpointer.ts), never the event loop. 'committing-connection': SQLite's automatic
   * checkpoint inside the COMMIT that grows the WAL past 1,000 pages, on the event loop (how it
   * was before; tests/bench/wal-checkpoint.bench.ts compares the two).
   */
  checkpointIn?: 'worker' | 'committing-connection';
  /** Thresholds of the checkpoint worker (tests use small ones). */
  checkpointTuning?: SqliteCheckpointOptions;
}

export function openSqliteDatabase(file: string, options: SqliteDatabaseOptions = {}): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  let autoCheckpointPages = options.checkpointIn === 'committing-connection' ? SQLITE_AUTOCHECKPOINT_PAGES : 0;
  const journalMode = configure(db, autoCheckpointPages);
  const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: db }) });
  const statements = new Map<string, BetterSqlite3.Statement>();

  function prepare(sqlText: string): BetterSqlite3.Statement {
    return cachedStatement(db, statements, sqlText);
  }

  // data_version moves when another connection commits; our own writes are counted here.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let ownWrites = 0;

  // An in-memory database has no WAL (journal mode 'memory'): SQLite's default behaviour stays.
  let checkpointer: SqliteCheckpointer | null = null;
  if (autoCheckpointPages === 0 && journalMode === 'wal') {
    checkpointer = createSqliteCheckpointer(file, {
      ...options.checkpointTuning,
      log: options.log,
      // A RESTART or TRUNCATE takes SQLite's write lock: this Database's writes wait for it here, as
      // for a bulk write, instead of sleeping in SQLite's busy handler on the event loop.
      holdWrites: async (work) => {
        if (bulkWrite) return false;
        let done!: () => void;
        bulkWrite = new Promise((resolve) => (done = resolve));
        try {
          await work();
          return true;
        } finally {
          bulkWrite = null;
          done();
        }
      },
      onGiveUp: () => {
        autoCheckpointPages = SQLITE_AUTOCHECKPOINT_PAGES;
        for (const open of [db, txConnection?.db]) if (open?.open) open.pragma(`wal_autocheckpoint = ${autoCheckpointPages}`);
      },
    });
  } else if (autoCheckpointPages === 0) {
    autoCheckpointPages = SQLITE_AUTOCHECKPOINT_PAGES;
    db.pragma(`wal_autocheckpoint = ${autoCheckpointPages}`);
  }
  /** A write transaction committed (or ended) on one of this Database's connections. */
  const committed = () => {
    ownWrites++;
    checkpointer?.noteCommit();
  };

  const params = (query: CompiledQuery): unknown[] => query.parameters.map(toSqliteValue);

  // While a bulk write or a transaction holds SQLite's write lock on its own connection, this
  // connection's writes wait here, asynchronously, instead of in SQLite's busy handler, which
  // sleeps on the event loop (and would keep the transaction from ever committing).
  // Always `while (bulkWrite) await writeTurn()`, never a bare `await writeTurn()`: the write must
  // follow the check that found the lock free in the same synchronous step. Resumed a tick later,
  // another waiter released by the same commit may have taken the lock in between (two BEGINs on
  // the transaction connection, or a write sleeping in the busy handler until SQLITE_BUSY).
  let bulkWrite: Promise<void> | null = null;
  const writeTurn = async () => {
    while (bulkWrite) await bulkWrite;
  };

  // Transactions (Database.transaction) run on one connection of their own, opened once: SQLite
  // has one writer, so one transaction holds the write lock at a time (the others' first writes
  // wait in writeTurn), and reads on the main connection keep seeing committed data (WAL).
  const transactions = new TransactionTracker<SqliteTransaction>();
  let txConnection: { db: BetterSqlite3.Database; statements: Map<string, BetterSqlite3.Statement> } | null = null;
  const txDb = () => {
    if (!txConnection) {
      const db = new BetterSqlite3(file);
      configure(db, autoCheckpointPages);
      txConnection = { db, statements: new Map() };
    }
    return txConnection;
  };
  const txPrepare = (sqlText: string): BetterSqlite3.Statement => {
    const { db, statements } = txDb();
    return cachedStatement(db, statements, sqlText);
  };
  /** The open, begun transaction of this call chain, or null (queries then run on the main connection). */
  const begunTransaction = (): SqliteTransaction | null => {
    const tx = transactions.current();
    return tx && tx.open && tx.release ? tx : null;
  };
  /** The caller's transaction, begun (BEGIN IMMEDIATE, taking the write lock) if it was not yet; null outside one. */
  const writingTransaction = async (): Promise<SqliteTransaction | null> => {
    const tx = transactions.current();
    if (!tx || !tx.open) return null;
    if (tx.release) return tx;
    tx.beginning ??= (async () => {
      while (bulkWrite) await writeTurn();
      let done!: () => void;
      bulkWrite = new Promise((resolve) => (done = resolve));
      try {
        txDb().db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        bulkWrite = null;
        done();
        throw error;
      }
      tx.release = () => {
        committed();
        bulkWrite = null;
        done();
      };
    })();
    await tx.beginning;
    return tx;
  };
  /** One statement after another on the transaction's connection, yielding the event loop every ~8 ms. */
  async function runOnTransaction(queries: readonly CompiledQuery[]): Promise<void> {
    let sliceStart = performance.now();
    for (const query of queries) {
      txPrepare(query.sql).run(params(query));
      if (queries.length > 1 && performance.now() - sliceStart > BULK_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
  async function savepoint<T>(tx: SqliteTransaction, work: () => Promise<T>): Promise<T> {
    const { db } = txDb();
    const name = `forja_savepoint_${++tx.savepoints}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (db.inTransaction) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
      }
      throw error;
    }
  }

  /**
   * All of `queries` or none, as one transaction on a second connection, in slices of about 8 ms
   * with the event loop running in between. Reads meanwhile see the data as it was before (WAL),
   * never half an import; writes through this Database wait for the commit.
   */
  async function writeInSlices(queries: readonly CompiledQuery[]): Promise<void> {
    while (bulkWrite) await writeTurn();
    let done!: () => void;
    bulkWrite = new Promise((resolve) => (done = resolve));
    const writer = new BetterSqlite3(file);
    try {
      configure(writer, autoCheckpointPages);
      const prepared = new Map<string, BetterSqlite3.Statement>();
      writer.exec('BEGIN IMMEDIATE');
      let sliceStart = performance.now();
      for (const query of queries) {
        let statement = prepared.get(query.sql);
        if (!statement) prepared.set(query.sql, (statement = writer.prepare(query.sql)));
        statement.run(params(query));
        if (performance.now() - sliceStart > BULK_SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      writer.exec('COMMIT');
    } catch (error) {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      throw error;
    } finally {
      writer.close();
      committed();
      bulkWrite = null;
      done();
    }
  }

  /**
   * Runs a query that returns rows, `take` reading them from its statement: in the open
   * transaction if this call chain has one, and a write that returns rows (UPDATE ... RETURNING)
   * waits for a bulk write as run() does.
   */
  async function reading<T>(query: CompiledQuery, take: (statement: BetterSqlite3.Statement, values: unknown[]) => T): Promise<T> {
    if (begunTransaction()) return take(txPrepare(query.sql), params(query));
    const statement = prepare(query.sql);
    if (!statement.readonly) {
      if (await writingTransaction()) return take(txPrepare(query.sql), params(query));
      while (bulkWrite) await writeTurn();
    }
    return take(statement, params(query));
  }

  const database: Database = {
    dialect: sqliteDialect,
    kysely,
    all(query) {
      return reading(query, allObjects);
    },
    read(query) {
      return reading(query, allArrays);
    },
    first(query) {
      return reading(query, firstObject);
    },
    async run(query) {
      if (await writingTransaction()) return txPrepare(query.sql).run(params(query)).changes;
      while (bulkWrite) await writeTurn();
      committed();
      return prepare(query.sql).run(params(query)).changes;
    },
    async runAll(queries) {
      const tx = await writingTransaction();
      if (tx) return savepoint(tx, () => runOnTransaction(queries));
      if (queries.length > BULK_WRITE_STATEMENTS) return writeInSlices(queries);
      while (bulkWrite) await writeTurn();
      committed();
      db.transaction(() => {
        for (const query of queries) prepare(query.sql).run(params(query));
      })();
    },
    async *stream(query, batchSize) {
      // An open iterator keeps a better-sqlite3 connection busy, so the long read gets its own
      // read-only connection (WAL lets it read a consistent snapshot while writes go on).
      const reader = new BetterSqlite3(file, { readonly: true });
      try {
        const statement = reader.prepare(query.sql).raw(true);
        const columns = statement.columns().map((c) => c.name);
        let rows: unknown[][] = [];
        // Reading is synchronous: a batch is also cut after STREAM_SLICE_MS, so a slow disk or a
        // busy machine never holds the event loop for a whole batch (an export of a million rows
        // gave health checks a p99 of a second when batches were cut by count alone).
        let sliceStart = performance.now();
        for (const row of statement.iterate(params(query))) {
          rows.push(row as unknown[]);
          if (rows.length >= batchSize || ((rows.length & 63) === 0 && performance.now() - sliceStart > STREAM_SLICE_MS)) {
            yield { columns, rows };
            rows = [];
            sliceStart = performance.now();
          }
        }
        if (rows.length > 0) yield { columns, rows };
      } finally {
        reader.close();
      }
    },
    async transaction(work) {
      const outer = transactions.current();
      if (outer?.open) {
        await writingTransaction();
        return savepoint(outer, work);
      }
      const tx: SqliteTransaction = { open: true, beginning: null, release: null, savepoints: 0 };
      try {
        const result = await transactions.run(tx, work);
        if (tx.beginning) await tx.beginning;
        if (tx.release) txDb().db.exec('COMMIT');
        return result;
      } catch (error) {
        if (tx.release && txConnection?.db.inTransaction) txConnection.db.exec('ROLLBACK');
        throw error;
      } finally {
        tx.open = false;
        tx.release?.();
      }
    },
    changeToken() {
      return `${ownWrites}:${dataVersion.get()}`;
    },
    async exclusive(_name, work) {
      return work();
    },
    poolCounts() {
      return null;
    },
    async close() {
      statements.clear();
      txConnection?.db.close();
      txConnection = null;
      await kysely.destroy();
      // Kysely closes the handle only if it ever ran a query itself (its driver opens on first use);
      // Databases that ran everything through prepared statements kept the connection open.
      if (db.open) db.close();
      // After the server's connections: the worker's is then the last, and its close copies what
      // is left and removes the WAL file off the event loop.
      await checkpointer?.close();
    },
  };
  nativeHandles.set(database, db);
  if (checkpointer) checkpointStats.set(database, checkpointer.stats);
  // The check and the write are one synchronous step: a write resumed a tick after the check could
  // find a bulk write or a transaction begun in between.
  writeGates.set(database, async (write) => {
    while (bulkWrite) await bulkWrite;
    try {
      return write();
    } finally {
      checkpointer?.noteCommit();
    }
  });
  return database;
}

/** One Database.transaction: begun at its first write, which takes SQLite's write lock until it ends. */
interface SqliteTransaction {
  /** False once the transaction ended: work still running in its call chain uses the main connection. */
  open: boolean;
  /** The BEGIN IMMEDIATE under way or done (started by the first write). */
  beginning: Promise<void> | null;
  /** Set once begun: gives the write lock back (after COMMIT or ROLLBACK). */
  release: (() => void) | null;
  savepoints: number;
}

/** The better-sqlite3 connection behind each SQLite Database (for engine-specific stores like RAG's FTS5 index). */
const nativeHandles = new WeakMap<Database, BetterSqlite3.Database>();

/**
 * Runs a synchronous write (one better-sqlite3 statement or transaction) on the server's own
 * connection once no bulk write or transaction holds SQLite's write lock on another connection,
 * as the Database's own writes wait. Code writing through the native handle (the RAG index) must
 * write through it: a write made straight on the handle meanwhile sleeps in SQLite's busy handler
 * on the event loop the lock holder needs to finish, and fails with SQLITE_BUSY after busy_timeout.
 */
export type SqliteWriteGate = <T>(write: () => T) => Promise<T>;
const writeGates = new WeakMap<Database, SqliteWriteGate>();

/** The write gate of a SQLite Database's own connection (see SqliteWriteGate), or null when `database` is not SQLite. */
export function sqliteWriteGateOf(database: Database): SqliteWriteGate | null {
  return writeGates.get(database) ?? null;
}

const checkpointStats = new WeakMap<Database, () => SqliteCheckpointStats>();

/** What the WAL checkpoint worker did so far, or null when `database` is not SQLite in WAL mode with the worker. */
export function sqliteCheckpointStatsOf(database: Database): SqliteCheckpointStats | null {
  return checkpointStats.get(database)?.() ?? null;
}

/** The server's own better-sqlite3 handle, or null when `database` is not SQLite. */
export function sqliteHandleOf(database: Database): BetterSqlite3.Database | null {
  return nativeHandles.get(database) ?? null;
}

function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** A connection's prepared statement for `sqlText`, from its cache (emptied when full). */
function cachedStatement(db: BetterSqlite3.Database, statements: Map<string, BetterSqlite3.Statement>, sqlText: string): BetterSqlite3.Statement {
  let statement = statements.get(sqlText);
  if (!statement) {
    if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
    statement = db.prepare(sqlText);
    statements.set(sqlText, statement);
  }
  return statement;
}
