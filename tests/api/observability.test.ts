import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobStore } from '../../server/jobs/job-store.ts';
import { sqliteHandleOf } from '../../server/db/sqlite-database.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { startPostgresInstances } from './helpers/postgres-instances.ts';
import { redisTestUrl } from './helpers/redis-test-url.ts';

/**
 * Issue 29 items 1-3: request ids, one log line per request, the readiness probe, 404 JSON for
 * paths that are not the console's, and the Prometheus metrics. Both engines.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

function logCollector() {
  const lines: Record<string, any>[] = [];
  return { lines, logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

describe('request ids and request logs', () => {
  let server: TestServer;
  const log = logCollector();
  beforeAll(async () => {
    server = await startTestServer({ logger: true, logLevel: 'info', logStream: log.logStream });
  });
  afterAll(async () => server.close());

  it.each(['client-id-1', 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'lb:1.2.3/x=y+z@q'])(
    'keeps an acceptable X-Request-Id (%s) on the response, in error bodies and in the log line',
    async (id) => {
      const ok = await server.raw('/api/roles', { headers: { 'x-request-id': id } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe(id);
      const missing = await server.raw('/api/roles/no-such-role', { headers: { 'x-request-id': id } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-request-id')).toBe(id);
      expect(JSON.parse(missing.text)).toMatchObject({ message: expect.any(String), requestId: id });
      const lines = log.lines.filter((line) => line.requestId === id && line.msg === 'request');
      expect(lines.map((line) => [line.route, line.status])).toEqual([
        ['/api/roles', 200],
        ['/api/roles/:id', 404],
      ]);
      expect(lines[0]).toMatchObject({ level: 30, method: 'GET', userId: expect.any(String), ms: expect.any(Number) });
    },
  );

  it.each([
    ['too long', 'x'.repeat(129)],
    ['a space', 'two words'],
    ['quotes and markup', '"<script>alert(1)</script>"'],
    ['non-ASCII', 'ídentificador'],
    ['a list', 'a,b'],
    ['empty', ''],
  ])('replaces an X-Request-Id with %s by a random UUID, never echoing it', async (_label, id) => {
    const res = await server.as(null).raw('/api/health', { headers: { 'x-request-id': encodeURI(id) === id ? id : encodeURI(id) } });
    const sent = res.headers.get('x-request-id')!;
    expect(sent).toMatch(UUID);
    expect(sent).not.toBe(id);
  });

  it('makes a different id for every request without one, and puts it in every error shape (400, 401, 404, 429-like, GraphQL-less REST)', async () => {
    const a = await server.get('/api/health');
    const b = await server.get('/api/health');
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
    const errors = [
      await server.as(null).get('/api/roles'),
      await server.post('/api/roles', { name: '' }),
      await server.raw('/api/roles', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad json' }),
      await server.get('/api/definitely-not-a-route'),
      // Refused by Fastify before routing (not valid percent-encoded UTF-8): the same shape and id.
      await server.as(null).raw('/api/bots/%FF%FE', { method: 'DELETE' }),
      await server.raw('/api/rag/clear/%E0%A4%A?search=x', {}),
      await server.get('/api/roles/%C0%AF'),
      // Refused by Node's parser before a request exists (headers over 16 KB): the shape and an id made for it.
      await server.get(`/api/roles?search=${'x'.repeat(17 * 1024)}`),
      await server.raw('/api/health', { headers: { 'x-padding': 'y'.repeat(20 * 1024) } }),
    ];
    expect(errors.map((e) => e.status)).toEqual([401, 400, 400, 404, 400, 400, 400, 431, 431]);
    for (const error of errors) {
      expect(JSON.parse(error.text)).toMatchObject({ message: expect.any(String), requestId: error.headers.get('x-request-id') });
    }
  });

  it('logs one line per request, none for probes, and never Fastify\'s two default lines', async () => {
    const id = 'one-line-check';
    const before = log.lines.length;
    await server.raw('/api/health', { headers: { 'x-request-id': `${id}-health` } });
    await server.raw('/api/health/ready', { headers: { 'x-request-id': `${id}-ready` } });
    await server.raw('/api/tenants', { headers: { 'x-request-id': id } });
    const lines = log.lines.slice(before);
    expect(lines.filter((line) => String(line.requestId).startsWith(`${id}-`))).toEqual([]);
    expect(lines.filter((line) => line.requestId === id)).toHaveLength(1);
    expect(log.lines.some((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toBe(false);
  });

  it('records the request id in the job a request enqueues', async () => {
    const id = 'export-request-42';
    const exported = await server.raw('/api/bots/export?format=JSON', { headers: { 'x-request-id': id } });
    expect(exported.status, exported.text).toBe(200);
    const jobs = await server.get('/api/jobs?kind=export');
    const job = await createJobStore(server.forja.database).get(jobs.body.items[0].id);
    expect(job?.context.requestId).toBe(id);
  });
});

describe('404 JSON for paths that are not the console', () => {
  let server: TestServer;
  beforeAll(async () => {
    const distDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'forja-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>console</title>');
    server = await startTestServer({ distDir });
  });
  afterAll(async () => server.close());

  it.each(['/metrics', '/healthz', '/readyz', '/livez', '/metrics/', '/api/nope', '/api/health/nope', '/api'])('%s answers 404 JSON in the error shape, not the console', async (url) => {
    const res = await server.as(null).raw(url, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(res.text)).toMatchObject({ message: expect.stringContaining('not found'), requestId: res.headers.get('x-request-id') });
  });

  it('still serves the console for its own deep links', async () => {
    const res = await server.as(null).raw('/crud/bot', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('console');
  });
});

describe('readiness', () => {
  it('answers 200 with every dependency up, then 503 naming the database once it is gone, while liveness stays 200', async () => {
    const server = await startTestServer({ signIn: false });
    const ready = await server.get('/api/health/ready');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.status).toBe('ready');
    for (const name of ['database', 'dataDir', 'jobs']) expect(ready.body.checks[name]).toMatchObject({ status: 'up', latencyMs: expect.any(Number) });
    expect(ready.body.checks.redis).toBeUndefined();

    // The database goes away under the running server.
    const handle = sqliteHandleOf(server.forja.database);
    if (TEST_BACKEND === 'postgres') await dropTestPostgresDatabase(String((server.forja.database as any).pool.options.connectionString));
    else handle!.close();

    const down = await server.get('/api/health/ready');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text)).toMatchObject({ status: 'unavailable', message: expect.stringContaining('database'), requestId: down.headers.get('x-request-id') });
    expect(down.body.checks.database).toMatchObject({ status: 'down', error: expect.any(String) });
    expect(down.body.checks.dataDir.status).toBe('up');
    expect(down.text).not.toContain(server.dataDir);
    const live = await server.get('/api/health');
    expect(live.status).toBe(200);
    await server.close().catch(() => {});
  });

  // The "done when": two instances over PostgreSQL with Redis, the database dropped.
  const redisUrl = redisTestUrl('observability');
  it.skipIf(TEST_BACKEND !== 'postgres' || !redisUrl)('two instances with Redis: ready with Redis checked, then 503 on both once the database is dropped, liveness 200', async () => {
    const cluster = await startPostgresInstances({ databasePrefix: 'forja_ready', count: 2, env: { REDIS_URL: redisUrl! } });
    try {
      for (const instance of cluster.instances) {
        const ready = await fetch(`${instance.baseUrl}/api/health/ready`);
        const body = await ready.json();
        expect(ready.status, JSON.stringify(body)).toBe(200);
        expect(body.checks.redis).toMatchObject({ status: 'up' });
      }
      await dropTestPostgresDatabase(cluster.databaseUrl);
      for (const instance of cluster.instances) {
        const down = await fetch(`${instance.baseUrl}/api/health/ready`);
        const body = await down.json();
        expect(down.status, JSON.stringify(body)).toBe(503);
        expect(body.checks.database.status).toBe('down');
        expect(body.checks.redis.status).toBe('up');
        expect((await fetch(`${instance.baseUrl}/api/health`)).status).toBe(200);
      }
    } finally {
      await cluster.close();
    }
  }, 120_000);
});

describe('metrics', () => {
  it('are off by default: /metrics is a 404', async () => {
    const server = await startTestServer({ signIn: false });
    const res = await server.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('not found');
    await server.close();
  });

  describe('with METRICS_ENABLED=true and METRICS_TOKEN', () => {
    let server: TestServer;
    const scrape = async () => {
      const res = await server.as(null).raw('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text;
    };
    const value = (text: string, series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(series + ' '));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    beforeAll(async () => {
      server = await startTestServer({ env: { METRICS_ENABLED: 'true', METRICS_TOKEN, CHAT_RATE_START_PER_MINUTE: '2' } });
    });
    afterAll(async () => server.close());

    it.each([
      ['no header', {}],
      ['a wrong token', { authorization: 'Bearer metrics-token-0123456789abcdeX' }],
      ['a shorter token', { authorization: 'Bearer metrics' }],
      ['the token without Bearer', { authorization: METRICS_TOKEN }],
      ['a user token', null],
    ])('refuses a scrape with %s (401)', async (_label, headers) => {
      const res = headers === null ? await server.get('/metrics') : await server.as(null).raw('/metrics', { headers: headers as Record<string, string> });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text).requestId).toBe(res.headers.get('x-request-id'));
      expect(res.text).not.toContain('forja_');
    });

    it('request, database, job, chat and rate-limit series move under requests', async () => {
      const requests = 'forja_http_request_duration_seconds_count{route="/api/roles/:id",method="GET",status="404"}';
      const before = await scrape();
      for (let i = 0; i < 3; i++) expect((await server.get(`/api/roles/missing-${i}`)).status).toBe(404);
      const exported = await server.get('/api/bots/export?format=JSON');
      expect(exported.status).toBe(200);
      const bot = await create(server, '/api/bots', minimalBot('Métricas'));
      const visitor = server.as(null);
      const starts = [];
      for (let i = 0; i < 3; i++) starts.push(await visitor.post('/api/chat/start', { name: 'Ana García', email: 'ana@example.com', botId: bot._id }));
      expect(starts.map((s) => s.status)).toEqual([201, 201, 429]);
      const answered = await visitor.post(`/api/chat/message/${starts[0].body._id}`, { message: '¿Cuál es el horario?' });
      expect(answered.status, answered.text).toBe(200);
      const after = await scrape();
      expect(value(after, requests) - value(before, requests)).toBe(3);
      expect(value(after, 'forja_rate_limit_refusals_total{route="/api/chat/start"}') - value(before, 'forja_rate_limit_refusals_total{route="/api/chat/start"}')).toBe(1);
      expect(value(after, 'forja_job_duration_seconds_count{kind="export",outcome="done"}')).toBeGreaterThan(value(before, 'forja_job_duration_seconds_count{kind="export",outcome="done"}'));
      expect(after).toMatch(/forja_chat_answers_total\{provider="[a-z-]+",status="[a-z_]+"\} [1-9]/);
      expect(after).toMatch(/forja_llm_tokens_total\{provider="offline",direction="input"\} [1-9]/);
      // Every method that runs a query is timed, the rows-as-arrays read of records included.
      for (const operation of ['first', 'read', 'run']) {
        expect(value(after, `forja_db_query_duration_seconds_count{operation="${operation}",engine="${TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'}"}`), operation).toBeGreaterThan(0);
      }
      if (TEST_BACKEND === 'postgres') expect(value(after, 'forja_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      for (const series of ['forja_jobs_queue_depth{state="queued"}', 'forja_jobs_running', 'nodejs_eventloop_lag_seconds', 'forja_llm_request_duration_seconds_count{provider="offline"}']) {
        expect(after, series).toContain(series);
      }
    });
  });
});
