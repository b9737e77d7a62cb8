import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { textsChunks } from './scripts/texts-chunks.ts';

const postgresTestUrl = process.env.DATABASE_URL_TEST?.trim();
if (!postgresTestUrl) {
  if (process.env.CI) throw new Error('CI must run the API suite on PostgreSQL too: DATABASE_URL_TEST is not set (see .ci/run)');
  console.warn('[vitest] api-postgres SKIPPED: DATABASE_URL_TEST is not set (eval "$(.ci/services.sh)" starts PostgreSQL and Redis locally)');
}

// One runner, several kinds of test: each project is a folder under tests/ (docs/architecture.md, "Testing").
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
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
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The same API suite on PostgreSQL (tests/api/helpers/test-database.ts): each test server
      // gets a database of its own on DATABASE_URL_TEST's server. Skipped, with a note, where no
      // PostgreSQL is configured (a developer machine); .ci/run always configures one.
      ...(postgresTestUrl
        ? [
            {
              test: {
                name: 'api-postgres',
                include: ['tests/api/**/*.test.ts'],
                environment: 'node',
                pool: 'forks' as const,
                testTimeout: 30_000,
                hookTimeout: 60_000,
                env: { FORJA_TEST_DB: 'postgres' },
                globalSetup: ['tests/api/helpers/postgres-global-setup.ts'],
              },
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
