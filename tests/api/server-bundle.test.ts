import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_BUNDLE, WORKER_BUNDLES, whyBuildServer } from '../../scripts/build-server.ts';
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
      // The worker pool loads its own bundled entry (dist-server/cpu-worker.mjs): a page over the
      // main-thread size is parsed there.
      for (const worker of WORKER_BUNDLES) expect(fs.existsSync(path.join(ROOT, worker))).toBe(true);
      const html = `<html><head><title>Desde el paquete</title></head><body>${'<p>Texto leído en un hilo de trabajo.</p>'.repeat(1_000)}</body></html>`;
      const form = new FormData();
      form.append('file', new Blob([html], { type: 'text/html' }), 'pagina.html');
      const uploaded = await fetch(`${server.baseUrl}/api/file`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      expect(uploaded.status, server.output()).toBe(201);
      const { filepath } = (await uploaded.json()) as { filepath: string };
      const parsed = await call(server.baseUrl, token, 'POST', '/api/rag/parse-file', { filepath });
      expect(parsed.status, parsed.text + server.output()).toBe(200);
      expect(parsed.body.content.startsWith('Desde el paquete\n\nTexto leído en un hilo de trabajo.')).toBe(true);
    } finally {
      await server.kill('SIGTERM');
    }
  }, 120_000);
});
