import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { freePort } from '../helpers/free-port.ts';

/**
 * Two real server processes (`server/main.ts`) on one PostgreSQL database and one Redis, as in
 * README.md "Scaling out": requests are spread over both and must behave like one server. Runs in the
 * api-postgres project (needs DATABASE_URL_TEST and REDIS_URL_TEST, which .ci/run provides).
 */
const redisUrl = process.env.REDIS_URL_TEST?.trim();
const enabled = TEST_BACKEND === 'postgres' && Boolean(redisUrl);
const LOGIN_LIMIT = 8;
const ADMIN_PASSWORD = 'Multi-admin-1234';

interface Instance {
  url: string;
  child: ChildProcess;
  output: string[];
}


async function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`instance did not start:\n${output.join('')}`);
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
}

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
  const adminToken = async (instance: Instance) => {
    const login = await call(instance.url, 'POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    signIns++;
    expect(login.status).toBe(200);
    return login.body.accessToken as string;
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-multi-'));
  let databaseUrl = '';
  let a: Instance | undefined;
  let b: Instance | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestPostgresDatabase('forja_multi');
    // Rate-limit counters of an earlier run in the same minute would count here.
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys('forja-rate-limit-*');
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      INSTANCE_MODE: 'multi',
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
      LOG_LEVEL: 'warn',
      PG_POOL_SIZE: '4',
    };
    // Started together on an empty database: they migrate and seed one after the other.
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('refuses to start in multi mode without the shared secrets', async () => {
    const env = { DATABASE_URL: databaseUrl, INSTANCE_MODE: 'multi', DATA_DIR: dataDir, LOG_LEVEL: 'warn', JWT_SECRET: '', API_KEY_SECRET: '' };
    await expect(startInstance(env)).rejects.toThrow(/JWT_SECRET and API_KEY_SECRET must be set/);
  }, 60_000);

  it('a token, a record, an API key and an export file from one instance work on the other', async () => {
    const login = await call(a!.url, 'POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    signIns++;
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;

    const created = await call(a!.url, 'POST', '/api/tenants', { name: 'Made on A' }, token);
    expect(created.status).toBe(201);
    const read = await call(b!.url, 'GET', `/api/tenants/${created.body._id}`, undefined, token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const updated = await call(b!.url, 'PUT', `/api/tenants/${created.body._id}`, { name: 'Renamed on B' }, token);
    expect(updated.status).toBe(200);
    expect((await call(a!.url, 'GET', `/api/tenants/${created.body._id}`, undefined, token)).body.name).toBe('Renamed on B');
    // B caches list totals until any instance writes: a write on A shows in B's total as soon as
    // B hears the table's change notification.
    const before = (await call(b!.url, 'GET', '/api/tenants', undefined, token)).body.total as number;
    await call(a!.url, 'POST', '/api/tenants', { name: 'Second on A' }, token);
    await expect.poll(async () => (await call(b!.url, 'GET', '/api/tenants', undefined, token)).body.total, { timeout: 2000, interval: 20 }).toBe(before + 1);

    // API-key hashes use the shared API_KEY_SECRET.
    const key = await call(a!.url, 'POST', '/api/user-api-keys', { name: 'multi' }, token);
    expect(key.status).toBe(201);
    const viaKey = await fetch(`${b!.url}/api/auth/me`, { headers: { 'x-api-key': key.body.secret } });
    expect(viaKey.status).toBe(200);
    expect((await viaKey.json()).username).toBe('admin');

    // Exports land in the shared DATA_DIR: written by A, downloaded from B.
    const exported = await call(a!.url, 'GET', '/api/tenants/export?format=JSON', undefined, token);
    expect(exported.status).toBe(200);
    const file = await fetch(b!.url + exported.body.url, { headers: { authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('Renamed on B');
  });

  it('a permission taken away on one instance is refused by the other, which had the caller cached', async () => {
    const admin = await adminToken(a!);
    const role = await call(a!.url, 'POST', '/api/roles', { name: 'Tenant viewers', permissions: ['tenant:view'] }, admin);
    expect(role.status).toBe(201);
    const user = { name: 'Viewer', username: 'viewer-multi', password: 'Viewer-pass-1234', email: 'viewer@example.com', phone: '1', role: role.body._id };
    expect((await call(a!.url, 'POST', '/api/users', user, admin)).status).toBe(201);
    const signIn = await call(b!.url, 'POST', '/api/auth/login', { username: user.username, password: user.password });
    signIns++;
    const token = signIn.body.accessToken as string;
    const list = () => call(b!.url, 'GET', '/api/tenants', undefined, token).then((r) => r.status);
    // Twice, so B answers the second from its cache of callers.
    expect([await list(), await list()]).toEqual([200, 200]);
    expect((await call(a!.url, 'PUT', `/api/roles/${role.body._id}`, { name: 'Tenant viewers', permissions: [] }, admin)).status).toBe(200);
    await expect.poll(list, { timeout: 2000, interval: 20 }).toBe(403);
  });

  it('trains a knowledge base on one instance at a time; both search the result', async () => {
    const token = await adminToken(a!);
    // Many paragraphs so a training lasts long enough for the second request to meet it.
    const text = Array.from({ length: 400 }, (_, i) => `Párrafo ${i}: la información de envíos número ${i} llega en ${i % 7} días hábiles.`).join('\n\n');
    const source = await call(a!.url, 'POST', '/api/knowledge-sources', { name: 'Envíos', type: 'text', sourceText: text, text }, token);
    expect(source.status).toBe(201);
    const knowledge = await call(b!.url, 'POST', '/api/knowledge', { name: 'KB multi', toolDescription: 'kb', sources: [source.body._id] }, token);
    expect(knowledge.status).toBe(201);
    const id = knowledge.body._id as string;
    const [first, second] = await Promise.all([
      call(a!.url, 'GET', `/api/rag/train/${id}`, undefined, token),
      call(b!.url, 'GET', `/api/rag/train/${id}`, undefined, token),
    ]);
    // Either one ran while the other was refused (409), or they did not overlap and both ran; never a 500.
    const statuses = [first.status, second.status].sort();
    expect([[200, 200], [200, 409]]).toContainEqual(statuses);
    const search = (instance: Instance) => call(instance.url, 'GET', `/api/rag/search/${id}?q=${encodeURIComponent('informacion envios')}`, undefined, token);
    const [onA, onB] = [await search(a!), await search(b!)];
    expect(onA.status).toBe(200);
    expect(onA.body.length).toBeGreaterThan(0);
    expect(onB.body).toEqual(onA.body);
    expect((await call(b!.url, 'GET', `/api/rag/status/${id}`, undefined, token)).body.chunks).toBeGreaterThan(0);
  }, 60_000);

  it('shares the sign-in rate limit through Redis', async () => {
    const attempt = (instance: Instance) =>
      call(instance.url, 'POST', '/api/auth/login', { username: 'admin', password: 'wrong-password-1' }).then((r) => r.status);
    // The earlier tests' sign-ins count too. Alternating instances, the limit is reached after
    // LOGIN_LIMIT attempts in total; per-process counters would allow twice as many.
    expect(signIns).toBeLessThan(LOGIN_LIMIT);
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT; i++) statuses.push(await attempt(i % 2 === 0 ? b! : a!));
    expect(statuses.slice(0, LOGIN_LIMIT - signIns)).toEqual(Array(LOGIN_LIMIT - signIns).fill(401));
    expect(statuses.slice(LOGIN_LIMIT - signIns)).toEqual(Array(signIns).fill(429));
  });
});

if (!enabled && TEST_BACKEND === 'postgres') console.warn('multi-instance test SKIPPED: REDIS_URL_TEST is not set');
