import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './helpers/until.ts';
import { CHILD_ADMIN_PASSWORD, call, login, spawnServer, type ChildServer } from '../fuzz/helpers/child-server.ts';

/**
 * Secrets never leave the server: password hashes, passwords, API-key secrets, the JWT and API-key
 * signing secrets and bearer tokens appear in no response body, export file, log line or error.
 * The server runs as a child process so its real pino output (LOG_LEVEL=debug) can be scanned.
 */
const JWT_SECRET = 'jwt-secret-for-leak-scan-0123456789abcdef';
const API_KEY_SECRET = 'api-key-secret-for-leak-scan-0123456789';
const USER_PASSWORD = 'Leak-Scan-Pass-9876';
const NEW_PASSWORD = 'Leak-Scan-Pass-5432';
let server: ChildServer;
let dataDir: string;
const bodies: string[] = [];
const exportFiles: string[] = [];

async function record(method: string, token: string | null, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.baseUrl + p, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  bodies.push(text);
  return { status: res.status, text, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-secrets-'));
  server = await spawnServer({ dataDir, env: { JWT_SECRET, API_KEY_SECRET, LOG_LEVEL: 'debug' } });
}, 90_000);
afterAll(async () => {
  await server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('secrets never leak', () => {
  it('not in responses, export files, logs or errors', async () => {
    const adminToken = await login(server.baseUrl);
    const roles = await record('GET', adminToken, '/api/roles?limit=50');
    const roleId = (roles.body.items ?? roles.body)[0]._id;
    const user = await record('POST', adminToken, '/api/users', { name: 'Leak', username: 'leak', email: 'leak@example.com', phone: '600000000', password: USER_PASSWORD, role: roleId });
    expect(user.status, user.text).toBe(201);
    const userToken = (await record('POST', null, '/api/auth/login', { username: 'leak', password: USER_PASSWORD })).body.accessToken;
    expect(typeof userToken).toBe('string');
    // Wrong passwords, wrong tokens and a bad API key: the errors must not echo them.
    await record('POST', null, '/api/auth/login', { username: 'leak', password: 'Wrong-' + USER_PASSWORD });
    await record('POST', null, '/api/auth/login', { username: 'nobody', password: USER_PASSWORD });
    await record('GET', userToken + 'x', '/api/auth/me');
    const key = await record('POST', adminToken, '/api/user-api-keys', { name: 'leak key' });
    expect(key.status, key.text).toBe(201);
    const apiKeySecret: string = key.body.secret;
    bodies.pop(); // the one response that shows the secret, once
    await record('GET', null, '/api/auth/me', undefined, { 'x-api-key': apiKeySecret });
    await record('GET', null, '/api/auth/me', undefined, { 'x-api-key': apiKeySecret + 'x' });
    await record('POST', adminToken, `/api/users/password/change/${user.body._id}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, currentPassword: USER_PASSWORD });
    await record('PUT', adminToken, `/api/users/${user.body._id}`, { password: 123 });
    for (const p of ['/api/users?limit=100', `/api/users/${user.body._id}`, '/api/users/find?limit=100', '/api/user-api-keys?limit=100', '/api/auth/me', '/api/users/search?search=leak']) {
      await record('GET', adminToken, p);
    }
    await record('POST', adminToken, '/graphql', { query: '{ __schema { types { name fields { name } } } }' });
    for (const entity of ['users', 'user-api-keys']) {
      for (const format of ['JSON', 'CSV']) {
        const exp = await record('GET', adminToken, `/api/${entity}/export?format=${format}`);
        if (exp.status === 200 && typeof exp.body?.url === 'string') {
          const file = await fetch(server.baseUrl + exp.body.url);
          exportFiles.push(await file.text());
        }
      }
    }
    expect(exportFiles.length).toBeGreaterThanOrEqual(2);
    // A last request to an unknown path logs its URL: once that line is out, every earlier one is.
    await fetch(`${server.baseUrl}/api/log-flushed-marker`);
    const logs = await until(() => server.output(), (out) => out.includes('log-flushed-marker'), 'the log line of the last request');
    expect(logs.length).toBeGreaterThan(0);

    const secrets: Record<string, string> = {
      'argon2 hash': '$argon2',
      'admin password': CHILD_ADMIN_PASSWORD,
      'user password': USER_PASSWORD,
      'new user password': NEW_PASSWORD,
      'API-key secret': apiKeySecret,
      JWT_SECRET,
      API_KEY_SECRET,
    };
    const leaks: string[] = [];
    const scan = (where: string, text: string) => {
      for (const [name, secret] of Object.entries(secrets)) if (text.includes(secret)) leaks.push(`${name} in ${where}: …${text.slice(Math.max(0, text.indexOf(secret) - 80), text.indexOf(secret) + 40)}…`);
    };
    bodies.forEach((body, i) => scan(`response ${i}`, body));
    exportFiles.forEach((file, i) => scan(`export file ${i}`, file));
    scan('server log', logs);
    // Bearer tokens are credentials too: never logged.
    for (const token of [adminToken, userToken]) if (logs.includes(token)) leaks.push('a bearer token in the server log');
    console.log(`[security] scanned ${bodies.length} responses, ${exportFiles.length} export files, ${logs.split('\n').length} log lines: ${leaks.length} leaks`);
    expect(leaks).toEqual([]);
  }, 90_000);
});
