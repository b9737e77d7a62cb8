import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { spawnServer, type ChildServer } from '../fuzz/helpers/child-server.ts';

/**
 * Two real server processes on one PostgreSQL database (README.md "Jobs"): a training started
 * through one instance is seen through the other, and when the instance running it is killed -9
 * the other takes it over once its heartbeat is stale (a window shortened for the test).
 */
const enabled = TEST_BACKEND === 'postgres';
const ADMIN_PASSWORD = 'Jobs-admin-1234';

async function call(base: string, method: string, p: string, token: string) {
  const response = await fetch(base + p, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe.skipIf(!enabled)('jobs across two instances on PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-jobs-multi-'));
  let databaseUrl = '';
  let instances: ChildServer[] = [];
  let site: http.Server;
  let siteUrl = '';
  /** The first request for /hold hangs (its instance is killed meanwhile); later ones answer. */
  let holdFirst = true;
  let token = '';

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      if (req.url === '/hold' && holdFirst) {
        holdFirst = false;
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('El envío es gratis desde 30 euros.');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    databaseUrl = await createTestPostgresDatabase('forja_jobs_multi');
    const env = {
      DATABASE_URL: databaseUrl,
      INSTANCE_MODE: 'multi',
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      PG_POOL_SIZE: '4',
      RAG_ALLOW_PRIVATE_URLS: 'true',
      JOBS_HEARTBEAT_SECONDS: '0.5',
      JOBS_STALE_SECONDS: '2',
      JOBS_POLL_MS: '100',
    };
    instances = await Promise.all([spawnServer({ dataDir, env }), spawnServer({ dataDir, env })]);
    const login = await fetch(`${instances[0].baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGTERM')));
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
    if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('train through one, read status through the other; kill -9 the one running it and the other finishes it', async () => {
    const [a, b] = instances;
    const created = await fetch(`${a.baseUrl}/api/knowledge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Envíos', toolDescription: 'envíos', urls: [{ title: 'web', url: `${siteUrl}/hold` }] }),
    });
    expect(created.status).toBe(201);
    const knowledge = (await created.json()) as { _id: string };

    // Started through A (the request dies with A if A runs it; the job does not).
    void call(a.baseUrl, 'GET', `/api/rag/train/${knowledge._id}`, token).catch(() => undefined);
    const running = await until(() => call(b.baseUrl, 'GET', `/api/rag/status/${knowledge._id}`, token), (r) => r.body?.state === 'running', 'B seeing the training run');
    expect(running.body).toMatchObject({ state: 'running', jobState: 'running' });
    const jobId = running.body.jobId as string;
    // The same job through either instance, and one training per knowledge base on both.
    const [onA, onB] = await Promise.all([call(a.baseUrl, 'GET', `/api/jobs/${jobId}`, token), call(b.baseUrl, 'GET', `/api/jobs/${jobId}`, token)]);
    expect(onA.body.state).toBe('running');
    expect(onB.body.worker).toBe(onA.body.worker);
    const second = await call(b.baseUrl, 'GET', `/api/rag/train/${knowledge._id}`, token);
    expect(second.status).toBe(409);

    // Kill -9 whichever instance holds the job (its worker id carries its pid).
    const victim = instances.find((instance) => String(onA.body.worker).includes(`:${instance.process.pid}:`));
    expect(victim).toBeDefined();
    const survivor = victim === a ? b : a;
    await victim!.kill('SIGKILL');

    const done = await until(() => call(survivor.baseUrl, 'GET', `/api/jobs/${jobId}`, token), (r) => r.body?.state === 'done', 'the survivor finishing the job');
    expect(done.body).toMatchObject({ attempts: 2, state: 'done' });
    expect(done.body.worker).toBeNull();
    const status = await call(survivor.baseUrl, 'GET', `/api/rag/status/${knowledge._id}`, token);
    expect(status.body).toMatchObject({ state: 'done', outcome: 'trained', chunks: 1 });
    // The index is consistent: the page's text is searchable once.
    const hits = await call(survivor.baseUrl, 'GET', `/api/rag/search/${knowledge._id}?q=${encodeURIComponent('envío gratis')}`, token);
    expect(hits.status).toBe(200);
    expect(hits.body).toHaveLength(1);
  }, 120_000);
});
