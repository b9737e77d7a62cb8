import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sqliteCheckpointStatsOf, sqliteHandleOf } from '../../server/db/sqlite-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { traceFixtures } from './helpers/fixtures.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/**
 * The server's SQLite WAL is checkpointed by the worker thread (server/db/sqlite-checkpointer.ts),
 * with the server's default thresholds: an import that writes more than 4 MiB of WAL is copied
 * into the database file off the event loop, requests go on meanwhile, and the server closes
 * cleanly with the worker (its connection, closing last, removes the WAL).
 */
describe.skipIf(TEST_BACKEND === 'postgres')('SQLite WAL checkpoint worker in the server', () => {
  let server: TestServer;
  let dataDir: string;
  const ROWS = 12_000;

  beforeAll(async () => {
    server = await startTestServer();
    dataDir = server.dataDir;
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('checkpoints after a large import from the worker, answers meanwhile, and closes cleanly', async () => {
    const database = server.forja.database;
    expect(sqliteHandleOf(database)!.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await traceFixtures(server);
    const lines = ['status;bot;chatId;userMessage;assistantMessage;tokens;latency'];
    const answer = 'Abrimos de lunes a viernes de 9 a 18 h, los sábados de 10 a 14 h. '.repeat(4);
    for (let i = 0; i < ROWS; i++) lines.push(`ok;Traced;wal-${i};Pregunta ${i} sobre horarios y precios del servicio;${answer};${i % 500};${i % 3000}`);
    const imported = await server.upload('/api/bot-traces/import?format=CSV', { name: 'traces.csv', content: lines.join('\n'), type: 'text/csv' });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.created).toBe(ROWS);
    const wal = path.join(dataDir, 'forja.db-wal');
    expect(fs.statSync(wal).size).toBeGreaterThan(4 * 1024 * 1024);

    // Health and lists keep answering while the worker copies the import into the database file.
    await vi.waitFor(
      async () => {
        expect((await server.get('/api/health')).status).toBe(200);
        const page = await server.get('/api/bot-traces?page=1&limit=5&search=wal-11999');
        expect(page.status).toBe(200);
        const stats = sqliteCheckpointStatsOf(database)!;
        expect(stats.passive).toBeGreaterThan(0);
        expect(stats.lastCopied).toBe(stats.lastFrames);
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(sqliteCheckpointStatsOf(database)).toMatchObject({ workerStarts: 1, failures: 0, gaveUp: false });
    expect(fs.statSync(path.join(dataDir, 'forja.db')).size).toBeGreaterThan(4 * 1024 * 1024);

    await server.close({ keepData: true });
    expect(fs.existsSync(wal)).toBe(false);
  }, 120_000);
});
