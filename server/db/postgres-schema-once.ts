import type pg from 'pg';

/** Runs `work` in one transaction on a pooled connection: all of it or none. */
export async function inPostgresTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A feature's own small tables (counters, leases, ledgers), created on first use: once per
 * process, and under a transaction advisory lock named `lockName`, because instances starting
 * together race on CREATE ... IF NOT EXISTS (a unique violation in pg_type). A failure is not
 * remembered: the next call tries again.
 */
export function postgresSchemaOnce(pool: pg.Pool, lockName: string, statements: readonly string[]): () => Promise<void> {
  let ready: Promise<void> | null = null;
  return () =>
    (ready ??= inPostgresTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName]);
      for (const statement of statements) await client.query(statement);
    }).catch((error: unknown) => {
      ready = null;
      throw error;
    }));
}
