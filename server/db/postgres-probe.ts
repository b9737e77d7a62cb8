import pg from 'pg';

/**
 * Connects once to `url` and runs `select 1`, on a connection of its own (before any Database is
 * opened: the start-up check). Rejects with the driver's or the network's error, whose `code`
 * (28P01, 3D000, ECONNREFUSED, ...) server/startup/check-startup.ts turns into advice.
 */
export async function probePostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A connection that fails after connecting must not crash the process with an unhandled 'error'.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}
