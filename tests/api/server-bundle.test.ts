import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_BUNDLE, whyBuildServer } from '../../scripts/build-server.ts';
import { call, login, ROOT, spawnServer } from '../fuzz/helpers/child-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/** `npm start` runs the server as an esbuild bundle under plain node: that path must work too. */
// Engine-independent: run once, in the SQLite project.
describe.skipIf(TEST_BACKEND === 'postgres')('the server bundle (npm start)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bundle-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('builds, knows when it is up to date, and serves the API with plain node', async () => {
    await buildServer(ROOT);
    expect(whyBuildServer(ROOT)).toBeNull();
    const server = await spawnServer({ dataDir, entry: [path.join(ROOT, SERVER_BUNDLE)], env: { LOG_LEVEL: 'warn' } });
    try {
      const token = await login(server.baseUrl);
      // Every module loaded at start-up (JSON imports with attributes included) and a list answered.
      const bots = await call(server.baseUrl, token, 'GET', `/api/bots?search=${encodeURIComponent('envíos')}`);
      expect(bots.status, server.output()).toBe(200);
    } finally {
      await server.kill('SIGTERM');
    }
  }, 60_000);
});
