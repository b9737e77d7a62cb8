import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import type { Database, Row } from './database.ts';
import { PostgresChangeFeed } from './postgres-change-feed.ts';
import { postgresDialect } from './postgres-dialect.ts';
import { TransactionTracker } from './transaction-tracker.ts';

export const DEFAULT_PG_POOL_SIZE = 10;

/** int8 (BIGINT columns, COUNT(*)) and numeric (AVG, SUM) as JS numbers, as SQLite returns them. */
const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: (value) => Number(value),
  1700: (value) => Number(value),
};
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /** Connections in the pool (PG_POOL_SIZE, default 10): per instance, so N instances open N x this. */
  poolSize?: number;
}

/**
 * PostgreSQL through one pg.Pool shared by Kysely and the execute methods. Statements are sent
 * with the extended protocol (the server plans them); no client-side statement cache is needed.
 */
export function openPostgresDatabase(url: string, options: PostgresOptions = {}): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? DEFAULT_PG_POOL_SIZE, types });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const changes = new PostgresChangeFeed(url);
  const params = (query: CompiledQuery) => query.parameters as unknown[];

  // Database.transaction: a pooled connection of its own, taken at the transaction's first write
  // (reads before it run on the pool, as outside a transaction) and held until COMMIT/ROLLBACK.
  const transactions = new TransactionTracker<PostgresTransaction>();
  const begunClient = (): pg.PoolClient | null => {
    const tx = transactions.current();
    return tx && tx.open ? tx.client : null;
  };
  const writingClient = async (): Promise<pg.PoolClient | null> => {
    const tx = transactions.current();
    if (!tx || !tx.open) return null;
    tx.beginning ??= (async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
      } catch (error) {
        client.release();
        throw error;
      }
      tx.client = client;
    })();
    await tx.beginning;
    return tx.client;
  };
  const isRead = (query: CompiledQuery) => /^\s*select\b/i.test(query.sql);
  /** The connection a query of this call chain runs on: its transaction's once begun (or begun by this write), else the pool. */
  const runner = async (query: CompiledQuery): Promise<pg.Pool | pg.PoolClient> =>
    begunClient() ?? (isRead(query) ? pool : ((await writingClient()) ?? pool));
  async function savepoint<T>(tx: PostgresTransaction, client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
    const name = `forja_savepoint_${++tx.savepoints}`;
    await client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
      throw error;
    }
  }

  const database: Database & { pool: pg.Pool } = {
    dialect: postgresDialect,
    kysely,
    pool,
    async all(query) {
      return ((await runner(query)).query(query.sql, params(query)) as Promise<pg.QueryResult>).then((result) => result.rows as Row[]);
    },
    async read(query) {
      const result = await (await runner(query)).query({ text: query.sql, values: params(query) as unknown[], rowMode: 'array' });
      return { columns: result.fields.map((field) => field.name), rows: result.rows as unknown[][] };
    },
    async first(query) {
      return ((await runner(query)).query(query.sql, params(query)) as Promise<pg.QueryResult>).then((result) => result.rows[0] as Row | undefined);
    },
    async run(query) {
      const client = await writingClient();
      // In a transaction the change is announced at its end (an uncommitted write changes nothing yet).
      if (client) return (await client.query(query.sql, params(query))).rowCount ?? 0;
      try {
        return (await pool.query(query.sql, params(query))).rowCount ?? 0;
      } finally {
        changes.changed();
      }
    },
    async runAll(queries) {
      const txClient = await writingClient();
      if (txClient) {
        return savepoint(transactions.current()!, txClient, async () => {
          for (const query of queries) await txClient.query(query.sql, params(query));
        });
      }
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const query of queries) await client.query(query.sql, params(query));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
        changes.changed();
      }
    },
    async *stream(query, batchSize) {
      // A server-side cursor on a pooled connection of its own, in a read-only transaction: one
      // consistent snapshot, constant memory, other requests keep the rest of the pool.
      const client = await pool.connect();
      let open = false;
      try {
        await client.query('BEGIN READ ONLY');
        open = true;
        await client.query(`DECLARE forja_stream NO SCROLL CURSOR FOR ${query.sql}`, params(query));
        for (;;) {
          const { rows, fields } = await client.query<unknown[]>({
            text: `FETCH ${Math.max(1, Math.floor(batchSize))} FROM forja_stream`,
            rowMode: 'array',
          });
          if (rows.length > 0) yield { columns: fields.map((f) => f.name), rows };
          if (rows.length < batchSize) break;
        }
        await client.query('COMMIT');
        open = false;
      } finally {
        if (open) await client.query('ROLLBACK').catch(() => {});
        client.release();
      }
    },
    async transaction(work) {
      const outer = transactions.current();
      if (outer?.open) return savepoint(outer, (await writingClient())!, work);
      const tx: PostgresTransaction = { open: true, beginning: null, client: null, savepoints: 0 };
      try {
        const result = await transactions.run(tx, work);
        if (tx.beginning) await tx.beginning;
        if (tx.client) await tx.client.query('COMMIT');
        return result;
      } catch (error) {
        await tx.client?.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        tx.open = false;
        if (tx.client) {
          tx.client.release();
          changes.changed();
        }
      }
    },
    changeToken() {
      return changes.token();
    },
    poolCounts() {
      return pool;
    },
    async exclusive(name, work) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await changes.close();
      await kysely.destroy();
    },
  };
  return database;
}

/** One Database.transaction: a pooled connection taken, and BEGIN sent, at its first write. */
interface PostgresTransaction {
  /** False once ended: work still running in its call chain goes back to the pool. */
  open: boolean;
  beginning: Promise<void> | null;
  client: pg.PoolClient | null;
  savepoints: number;
}

/** The pool behind a PostgreSQL Database (for engine-specific stores like RAG's tsvector index), or null. */
export function postgresPoolOf(database: Database): pg.Pool | null {
  const pool = (database as { pool?: unknown }).pool;
  return database.dialect.name === 'postgres' && pool instanceof pg.Pool ? pool : null;
}
