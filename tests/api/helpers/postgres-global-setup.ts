import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    forjaTestRun: string;
  }
}

/**
 * api-postgres: every test database of this run is named forja_test_<run>_...; at the end the ones
 * tests kept on purpose (restarts on a DATA_DIR of their own) are dropped too. Only this run's:
 * other runs on the same server are left alone.
 */
export default function setup(project: TestProject) {
  const run = randomBytes(4).toString('hex');
  project.provide('forjaTestRun', run);
  return async function teardown() {
    const url = process.env.DATABASE_URL_TEST?.trim();
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`forja_test_${run}_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    } finally {
      await client.end();
    }
  };
}
