import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { spawnServer, type ChildServer } from '../fuzz/helpers/child-server.ts';
import { redisTestUrl } from './helpers/redis-test-url.ts';

/**
 * Two real server processes (`server/main.ts`) on one PostgreSQL database and one Redis, as in
 * README.md "Scaling out": requests are spread over both and must behave like one server. Runs in the
 * api-postgres project (needs DATABASE_URL_TEST and REDIS_URL_TEST, which .ci/run provides).
 */
const redisUrl = redisTestUrl('multi-instance');
const enabled = TEST_BACKEND === 'postgres' && Boolean(redisUrl);
const LOGIN_LIMIT = 8;
const ADMIN_PASSWORD = 'Multi-admin-1234';

async function call(base: string, method: string, p: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

describe.skipIf(!enabled)('two instances on PostgreSQL and Redis', () => {
  /** Sign-ins so far: every one counts against the shared sign-in limit tested last. */
  let signIns = 0;
  const adminToken = async (instance: ChildServer) => {
    const login = await call(instance.baseUrl, 'POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    signIns++;
    expect(login.status).toBe(200);
    return login.body.accessToken as string;
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-multi-'));
  let databaseUrl = '';
  let a: ChildServer | undefined;
  let b: ChildServer | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestPostgresDatabase('forja_multi');
    // Rate-limit counters of an earlier run in the same minute would count here.
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys('forja-rate-limit-*');
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl!,
      INSTANCE_MODE: 'multi',
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
      LOG_LEVEL: 'warn',
      PG_POOL_SIZE: '4',
    };
    // Started together on an empty database: they migrate and seed one after the other.
    [a, b] = await Promise.all([spawnServer({ dataDir, env }), spawnServer({ dataDir, env })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('refuses to start in multi mode without the shared secrets', async () => {
    const env = { DATABASE_URL: databaseUrl, INSTANCE_MODE: 'multi', LOG_LEVEL: 'warn', JWT_SECRET: '', API_KEY_SECRET: '' };
    await expect(spawnServer({ dataDir, env })).rejects.toThrow(/JWT_SECRET and API_KEY_SECRET must be set/);
  }, 60_000);

  it('a token, a record, an API key and an export file from one instance work on the other', async () => {
    const login = await call(a!.baseUrl, 'POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    signIns++;
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;

    const created = await call(a!.baseUrl, 'POST', '/api/tenants', { name: 'Made on A' }, token);
    expect(created.status).toBe(201);
    const read = await call(b!.baseUrl, 'GET', `/api/tenants/${created.body._id}`, undefined, token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const updated = await call(b!.baseUrl, 'PUT', `/api/tenants/${created.body._id}`, { name: 'Renamed on B' }, token);
    expect(updated.status).toBe(200);
    expect((await call(a!.baseUrl, 'GET', `/api/tenants/${created.body._id}`, undefined, token)).body.name).toBe('Renamed on B');
    // B caches list totals until any instance writes: a write on A shows in B's total as soon as
    // B hears the table's change notification.
    const before = (await call(b!.baseUrl, 'GET', '/api/tenants', undefined, token)).body.total as number;
    await call(a!.baseUrl, 'POST', '/api/tenants', { name: 'Second on A' }, token);
    await expect.poll(async () => (await call(b!.baseUrl, 'GET', '/api/tenants', undefined, token)).body.total, { timeout: 2000, interval: 20 }).toBe(before + 1);

    // API-key hashes use the shared API_KEY_SECRET.
    const key = await call(a!.baseUrl, 'POST', '/api/user-api-keys', { name: 'multi' }, token);
    expect(key.status).toBe(201);
    const viaKey = await fetch(`${b!.baseUrl}/api/auth/me`, { headers: { 'x-api-key': key.body.secret } });
    expect(viaKey.status).toBe(200);
    expect((await viaKey.json()).username).toBe('admin');

    // Exports land in the shared DATA_DIR: written by A, downloaded from B.
    const exported = await call(a!.baseUrl, 'GET', '/api/tenants/export?format=JSON', undefined, token);
    expect(exported.status).toBe(200);
    const file = await fetch(b!.baseUrl + exported.body.url, { headers: { authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('Renamed on B');
  });

  it('a permission taken away on one instance is refused by the other, which had the caller cached', async () => {
    const admin = await adminToken(a!);
    const role = await call(a!.baseUrl, 'POST', '/api/roles', { name: 'Tenant viewers', permissions: ['tenant:view'] }, admin);
    expect(role.status).toBe(201);
    const user = { name: 'Viewer', username: 'viewer-multi', password: 'Viewer-pass-1234', email: 'viewer@example.com', phone: '1', role: role.body._id };
    expect((await call(a!.baseUrl, 'POST', '/api/users', user, admin)).status).toBe(201);
    const signIn = await call(b!.baseUrl, 'POST', '/api/auth/login', { username: user.username, password: user.password });
    signIns++;
    const token = signIn.body.accessToken as string;
    const list = () => call(b!.baseUrl, 'GET', '/api/tenants', undefined, token).then((r) => r.status);
    // Twice, so B answers the second from its cache of callers.
    expect([await list(), await list()]).toEqual([200, 200]);
    expect((await call(a!.baseUrl, 'PUT', `/api/roles/${role.body._id}`, { name: 'Tenant viewers', permissions: [] }, admin)).status).toBe(200);
    await expect.poll(list, { timeout: 2000, interval: 20 }).toBe(403);
  });

  it('trains a knowledge base on one instance at a time; both search the result', async () => {
    const token = await adminToken(a!);
    // Many paragraphs so a training lasts long enough for the second request to meet it.
    const text = Array.from({ length: 400 }, (_, i) => `Párrafo ${i}: la información de envíos número ${i} llega en ${i % 7} días hábiles.`).join('\n\n');
    const source = await call(a!.baseUrl, 'POST', '/api/knowledge-sources', { name: 'Envíos', type: 'text', sourceText: text, text }, token);
    expect(source.status).toBe(201);
    const knowledge = await call(b!.baseUrl, 'POST', '/api/knowledge', { name: 'KB multi', toolDescription: 'kb', sources: [source.body._id] }, token);
    expect(knowledge.status).toBe(201);
    const id = knowledge.body._id as string;
    const [first, second] = await Promise.all([
      call(a!.baseUrl, 'GET', `/api/rag/train/${id}`, undefined, token),
      call(b!.baseUrl, 'GET', `/api/rag/train/${id}`, undefined, token),
    ]);
    // Either one ran while the other was refused (409), or they did not overlap and both ran; never a 500.
    const statuses = [first.status, second.status].sort();
    expect([[200, 200], [200, 409]]).toContainEqual(statuses);
    const search = (instance: ChildServer) => call(instance.baseUrl, 'GET', `/api/rag/search/${id}?q=${encodeURIComponent('informacion envios')}`, undefined, token);
    const [onA, onB] = [await search(a!), await search(b!)];
    expect(onA.status).toBe(200);
    expect(onA.body.length).toBeGreaterThan(0);
    expect(onB.body).toEqual(onA.body);
    expect((await call(b!.baseUrl, 'GET', `/api/rag/status/${id}`, undefined, token)).body.chunks).toBeGreaterThan(0);
  }, 60_000);

  it('shares the sign-in rate limit through Redis, over REST and GraphQL alike', async () => {
    const rest = (instance: ChildServer) =>
      call(instance.baseUrl, 'POST', '/api/auth/login', { username: 'admin', password: 'wrong-password-1' }).then((r) => r.status);
    const graphql = (instance: ChildServer) =>
      call(instance.baseUrl, 'POST', '/graphql', { query: 'mutation { login(username: "admin", password: "wrong-password-1") { accessToken } }' })
        .then((r) => r.body.errors?.[0]?.extensions?.status as number);
    // The earlier tests' sign-ins count too. Alternating instances (REST on b, GraphQL on a), the
    // limit is reached after LOGIN_LIMIT attempts in total; per-process or per-transport counters
    // would allow more.
    expect(signIns).toBeLessThan(LOGIN_LIMIT);
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT; i++) statuses.push(await (i % 2 === 0 ? rest(b!) : graphql(a!)));
    expect(statuses.slice(0, LOGIN_LIMIT - signIns)).toEqual(Array(LOGIN_LIMIT - signIns).fill(401));
    expect(statuses.slice(LOGIN_LIMIT - signIns)).toEqual(Array(signIns).fill(429));
  });
});

if (!enabled && TEST_BACKEND === 'postgres') console.warn('multi-instance test SKIPPED: REDIS_URL_TEST is not set');
