import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_BUNDLE, whyBuildServer } from '../../scripts/build-server.ts';
import { freePort } from '../helpers/free-port.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/** `npm start` runs the server as an esbuild bundle under plain node: that path must work too. */
// Engine-independent: run once, in the SQLite project.
describe.skipIf(TEST_BACKEND === 'postgres')('the server bundle (npm start)', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bundle-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('builds, knows when it is up to date, and serves the API with plain node', async () => {
    await buildServer(root);
    expect(whyBuildServer(root)).toBeNull();
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, SERVER_BUNDLE)], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'Bundle-admin-1234', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Bundle-admin-1234' }),
      });
      expect(login.status, output).toBe(200);
      const { accessToken } = (await login.json()) as { accessToken: string };
      // Every module loaded at start-up (JSON imports with attributes included) and a list answered.
      const bots = await fetch(`${base}/api/bots?search=${encodeURIComponent('envíos')}`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(bots.status, output).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
