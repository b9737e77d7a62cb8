import path from 'node:path';
import type { CompiledQuery, Kysely } from 'kysely';
import type { SqlDialect } from './sql-dialect.ts';
import { DEFAULT_PG_POOL_SIZE, openPostgresDatabase } from './postgres-database.ts';
import type { SqliteCheckpointLog } from './sqlite-checkpointer.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

export type Row = Record<string, unknown>;

/**
 * A slice of a streamed result as arrays in `columns` order: a million rows read as objects cost
 * a million hidden-class objects; arrays are what both drivers produce natively.
 */
export interface RowBatch {
  columns: readonly string[];
  rows: unknown[][];
}

/**
 * The one handle the rest of the server uses for SQL. Queries are built with `kysely` and
 * compiled; executing them goes through these methods so each engine can execute its own
 * best way (SQLite: cached prepared statements; PostgreSQL: a pool and server-side cursors).
 */
export interface Database {
  readonly dialect: SqlDialect;
  /** Query builder and schema builder/introspection (DDL runs through it directly). */
  readonly kysely: Kysely<any>;
  all(query: CompiledQuery): Promise<Row[]>;
  /**
   * all(), with the rows as the driver's arrays in `columns` order: what a read whose rows are
   * decoded into records takes (server/entities/record-codec.ts decodeBatch). A row object per
   * row is built key by key by both drivers, which past 19 columns is V8's slow kind of object.
   */
  read(query: CompiledQuery): Promise<RowBatch>;
  first(query: CompiledQuery): Promise<Row | undefined>;
  /** Runs a write; resolves to the number of rows changed. */
  run(query: CompiledQuery): Promise<number>;
  /** Runs every write in one transaction: all of them or none. */
  runAll(queries: readonly CompiledQuery[]): Promise<void>;
  /**
   * Runs `work` as one transaction: every query this Database runs from inside it (the same
   * async call chain, followed with AsyncLocalStorage) commits when `work` resolves and is rolled
   * back when it throws. The transaction begins at its first write: reads before it see the
   * committed data, as outside a transaction, and no connection or SQLite write lock is held
   * while `work` only reads or computes (a password hash). From then on every query of `work`
   * runs on the transaction's connection and sees its own writes. Nested calls are savepoints
   * (an inner failure undoes the inner writes only). Not part of it: `stream` and `exclusive`
   * (their own connections), and SQL run on `kysely` or a native handle directly. The entity
   * service runs each create, update and delete with its hooks in one (server/entities/README.md).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Reads a large result in batches with constant memory, on a connection of its own so
   * other requests keep being served while it runs.
   */
  stream(query: CompiledQuery, batchSize: number): AsyncIterable<RowBatch>;
  /**
   * A value that changes whenever any committed write may have changed the data (this process's
   * or another's), so derived results such as list totals can be cached until it moves.
   */
  changeToken(): string;
  /**
   * Runs `work` while holding a lock named `name` that every process on this database respects
   * (PostgreSQL: a session advisory lock on a connection of its own; SQLite: one process, none
   * needed). Used so instances starting together migrate and seed one after the other.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** This instance's connection pool, as live counts (the metrics' gauge); null without a pool (SQLite). */
  poolCounts(): PoolCounts | null;
  close(): Promise<void>;
}

/** Live counts of a connection pool: open connections, idle ones, and requests waiting for one. */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections of this instance (PG_POOL_SIZE, read by server/config.ts); default 10. */
  poolSize?: number;
  /** Where background database work reports failures (SQLite: the WAL checkpoint worker); default the console. */
  log?: SqliteCheckpointLog;
}

type Opener = (location: string, options: DatabaseOptions) => Database;

/** Engines by URL scheme: SQLite (one process) or PostgreSQL (several instances, see README.md "Scaling out"). */
const OPENERS: Record<string, Opener> = {
  sqlite: (location, options) => openSqliteDatabase(location, { log: options.log }),
  postgres: (location, options) => openPostgresDatabase(location, { poolSize: options.poolSize ?? DEFAULT_PG_POOL_SIZE }),
};

export function openDatabase(options: DatabaseOptions): Database {
  const { scheme, location } = parseDatabaseUrl(options);
  const opener = OPENERS[scheme];
  if (!opener) {
    throw new Error(
      `DATABASE_URL scheme "${scheme}" is not supported (known: ${Object.keys(OPENERS).join(', ')}). ` +
        'Leave DATABASE_URL unset to use SQLite under DATA_DIR.',
    );
  }
  return opener(location, options);
}

/** The engine and where its data is: SQLite file path or the PostgreSQL URL (exported for the backup commands). */
export function parseDatabaseUrl(options: Pick<DatabaseOptions, 'dataDir' | 'databaseUrl'>): { scheme: string; location: string } {
  const url = options.databaseUrl;
  if (!url) return { scheme: 'sqlite', location: path.join(options.dataDir, 'forja.db') };
  const match = /^([a-z][a-z0-9+.-]*):(?:\/\/)?(.*)$/i.exec(url);
  // A bare path (no scheme) is a SQLite file, relative to the working directory.
  if (!match || match[1].length === 1) return { scheme: 'sqlite', location: path.resolve(url) };
  const scheme = match[1].toLowerCase() === 'postgresql' ? 'postgres' : match[1].toLowerCase();
  return { scheme, location: scheme === 'sqlite' ? path.resolve(match[2]) : url };
}
