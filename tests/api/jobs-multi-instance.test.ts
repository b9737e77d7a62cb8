import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from './helpers/test-database.ts';
import { startHeldPageSite, type HeldPageSite } from './helpers/held-page-site.ts';
import { startPostgresInstances, type PostgresInstances } from './helpers/postgres-instances.ts';
import { until } from './helpers/until.ts';

/**
 * Two real server processes on one PostgreSQL database (README.md "Jobs"): a training started
 * through one instance is seen through the other, and when the instance running it is killed -9
 * the other takes it over once its heartbeat is stale (a window shortened for the test).
 */
const enabled = TEST_BACKEND === 'postgres';
const POLL = { tries: 600, everyMs: 100 };

async function call(base: string, method: string, p: string, token: string) {
  const response = await fetch(base + p, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(!enabled)('jobs across two instances on PostgreSQL', () => {
  let cluster: PostgresInstances;
  /** The first request for /hold hangs (its instance is killed meanwhile); later ones answer. */
  let site: HeldPageSite;

  beforeAll(async () => {
    site = await startHeldPageSite({ holdFirstOnly: true, heldText: 'El envío es gratis desde 30 euros.' });
    cluster = await startPostgresInstances({
      databasePrefix: 'forja_jobs_multi',
      count: 2,
      env: { RAG_ALLOW_PRIVATE_URLS: 'true', JOBS_HEARTBEAT_SECONDS: '0.5', JOBS_STALE_SECONDS: '2', JOBS_POLL_MS: '100' },
    });
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await site?.close();
  }, 30_000);

  it('train through one, read status through the other; kill -9 the one running it and the other finishes it', async () => {
    const { instances, token } = cluster;
    const [a, b] = instances;
    const created = await fetch(`${a.baseUrl}/api/knowledge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Envíos', toolDescription: 'envíos', urls: [{ title: 'web', url: `${site.url}/hold` }] }),
    });
    expect(created.status).toBe(201);
    const knowledge = (await created.json()) as { _id: string };

    // Started through A (the request dies with A if A runs it; the job does not).
    void call(a.baseUrl, 'GET', `/api/rag/train/${knowledge._id}`, token).catch(() => undefined);
    const running = await until(() => call(b.baseUrl, 'GET', `/api/rag/status/${knowledge._id}`, token), (r) => r.body?.state === 'running', 'B seeing the training run', POLL);
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

    const done = await until(() => call(survivor.baseUrl, 'GET', `/api/jobs/${jobId}`, token), (r) => r.body?.state === 'done', 'the survivor finishing the job', POLL);
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
