import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { textsChunks } from './scripts/texts-chunks.ts';

const postgresTestUrl = process.env.DATABASE_URL_TEST?.trim();
if (!postgresTestUrl) {
  if (process.env.CI) throw new Error('CI must run the API suite on PostgreSQL too: DATABASE_URL_TEST is not set (see .ci/run)');
  console.warn('[vitest] api-postgres SKIPPED: DATABASE_URL_TEST is not set (eval "$(.ci/services.sh)" starts PostgreSQL and Redis locally)');
}

/**
 * Files that hold a measured figure to a bound (a p99 latency, how far a WAL grows while a worker
 * thread keeps up): each runs in a `-serial` project, alone, after the files that run side by
 * side, so a neighbour's load cannot fail them. Everything else of unit, dom, api and api-postgres
 * runs two files at a time or more (maxWorkers below); fuzz and e2e one file at a time, last.
 */
const SERIAL = {
  unit: ['tests/unit/db/sqlite-wal-checkpoint.test.ts'],
  api: ['tests/api/bounded-parsing.test.ts'],
};

const API = { environment: 'node', pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000 } as const;
const POSTGRES = { env: { FORJA_TEST_DB: 'postgres' }, globalSetup: ['tests/api/helpers/postgres-global-setup.ts'] };

// One runner, several kinds of test: each project is a folder under tests/ (docs/architecture.md, "Testing").
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's 2-core machine, where
    // most files wait on servers, databases and child processes and the second core stayed idle.
    // VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SERIAL.unit], environment: 'node' },
      },
      {
        test: { name: 'unit-serial', include: SERIAL.unit, environment: 'node', fileParallelism: false },
      },
      {
        plugins: [react(), textsChunks()],
        test: {
          name: 'dom',
          include: ['tests/unit/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup-dom.ts'],
        },
      },
      {
        test: { name: 'api', include: ['tests/api/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SERIAL.api], ...API },
      },
      {
        test: { name: 'api-serial', include: SERIAL.api, ...API, fileParallelism: false },
      },
      // The same API suite on PostgreSQL (tests/api/helpers/test-database.ts): each test server
      // gets a database of its own on DATABASE_URL_TEST's server. Skipped, with a note, where no
      // PostgreSQL is configured (a developer machine); .ci/run always configures one.
      ...(postgresTestUrl
        ? [
            {
              test: { name: 'api-postgres', include: ['tests/api/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SERIAL.api], ...API, ...POSTGRES },
            },
            {
              test: { name: 'api-postgres-serial', include: SERIAL.api, ...API, ...POSTGRES, fileParallelism: false },
            },
          ]
        : []),
      {
        // Bad input, faults and hostile clients (tests/fuzz, SECURITY.md); one file at a time.
        test: {
          name: 'fuzz',
          include: ['tests/fuzz/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // The production build and server bundle, built once (what npm start serves), and every
          // page's errors and CSP violations failing the test that caused them.
          globalSetup: ['tests/e2e/helpers/build-once.ts'],
          setupFiles: ['tests/e2e/helpers/fail-on-browser-errors.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
