import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database, Row } from './database.ts';
import { sqliteDialect } from './sqlite-dialect.ts';

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

function configure(db: BetterSqlite3.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Safe with WAL (a crash can lose the last commits, never corrupt) and much faster writes.
  db.pragma('synchronous = NORMAL');
}

export function openSqliteDatabase(file: string): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  configure(db);
  const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: db }) });
  const statements = new Map<string, BetterSqlite3.Statement>();

  function prepare(sqlText: string): BetterSqlite3.Statement {
    let statement = statements.get(sqlText);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statement = db.prepare(sqlText);
      statements.set(sqlText, statement);
    }
    return statement;
  }

  // data_version moves when another connection commits; our own writes are counted here.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let ownWrites = 0;

  const params = (query: CompiledQuery): unknown[] => query.parameters.map(toSqliteValue);

  // While a bulk write holds SQLite's write lock on its own connection, this connection's writes
  // wait here, asynchronously, instead of in SQLite's busy handler, which sleeps on the event loop.
  let bulkWrite: Promise<void> | null = null;
  const writeTurn = async () => {
    while (bulkWrite) await bulkWrite;
  };

  /**
   * All of `queries` or none, as one transaction on a second connection, in slices of about 8 ms
   * with the event loop running in between. Reads meanwhile see the data as it was before (WAL),
   * never half an import; writes through this Database wait for the commit.
   */
  async function writeInSlices(queries: readonly CompiledQuery[]): Promise<void> {
    await writeTurn();
    let done!: () => void;
    bulkWrite = new Promise((resolve) => (done = resolve));
    const writer = new BetterSqlite3(file);
    try {
      configure(writer);
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
      ownWrites++;
      bulkWrite = null;
      done();
    }
  }

  const database: Database = {
    dialect: sqliteDialect,
    kysely,
    async all(query) {
      const statement = prepare(query.sql);
      // A write that returns rows (UPDATE ... RETURNING) waits for a bulk write like run() does.
      if (bulkWrite && !statement.readonly) await writeTurn();
      return statement.all(params(query)) as Row[];
    },
    async first(query) {
      const statement = prepare(query.sql);
      if (bulkWrite && !statement.readonly) await writeTurn();
      return statement.get(params(query)) as Row | undefined;
    },
    async run(query) {
      if (bulkWrite) await writeTurn();
      ownWrites++;
      return prepare(query.sql).run(params(query)).changes;
    },
    async runAll(queries) {
      if (queries.length > BULK_WRITE_STATEMENTS) return writeInSlices(queries);
      if (bulkWrite) await writeTurn();
      ownWrites++;
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
    changeToken() {
      return `${ownWrites}:${dataVersion.get()}`;
    },
    async exclusive(_name, work) {
      return work();
    },
    async close() {
      statements.clear();
      await kysely.destroy();
    },
  };
  nativeHandles.set(database, db);
  // The check and the write are one synchronous step: a write resumed a tick after the check could
  // find a bulk write or a transaction begun in between.
  writeGates.set(database, async (write) => {
    while (bulkWrite) await bulkWrite;
    return write();
  });
  return database;
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

/** The server's own better-sqlite3 handle, or null when `database` is not SQLite. */
export function sqliteHandleOf(database: Database): BetterSqlite3.Database | null {
  return nativeHandles.get(database) ?? null;
}

function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
