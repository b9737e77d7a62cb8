import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

describe('rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signIn: false, identity: { rateLimits: { login: 3, register: 2, recovery: 2 } } });
  });
  afterAll(async () => server.close());

  it('sign-in attempts beyond the limit get 429 in the error shape', async () => {
    const attempt = () => server.post('/api/auth/login', { username: 'admin', password: 'wrong-password' });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.stringMatching(/^Too many requests/), i18nMessage: 'error.tooManyRequests' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('registration and recovery are limited too', async () => {
    for (const path of ['/api/users/register', '/api/users/password/recovery/request']) {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await server.post(path, { email: 'a@example.com' })).status);
      expect(statuses.at(-1)).toBe(429);
    }
  });
});

describe('security headers and CORS', () => {
  let closed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ signIn: false });
    open = await startTestServer({ signIn: false, identity: { corsOrigins: ['https://admin.example.com'] } });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('sends helmet headers with a CSP that fits the console (self scripts, inline styles, Google sign-in)', async () => {
    const res = await closed.get('/api/health');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('CORS is closed by default and open to the configured origins only', async () => {
    const preflight = (server: TestServer, origin: string) =>
      server.raw('/api/auth/login', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight(closed, 'https://admin.example.com')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(open, 'https://admin.example.com')).headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
    expect((await preflight(open, 'https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('first start', () => {
  it('without ADMIN_PASSWORD generates one, prints it once and writes admin-password.txt (0600)', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((text: string) => (printed.push(String(text)), true)) as typeof process.stdout.write;
    let server: TestServer;
    try {
      server = await startTestServer({ signIn: false, identity: { adminPassword: undefined } });
    } finally {
      process.stdout.write = write;
    }
    try {
      const file = path.join(server.dataDir, 'admin-password.txt');
      const password = fs.readFileSync(file, 'utf8').trim();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(printed.join('')).toContain(`Sign in at http://localhost:0/login as admin / ${password}`);
      expect(await server.login('admin', password)).toMatch(/^ey/);
      // A restart does not print or change it again.
      printed.length = 0;
      await server.close({ keepData: true });
      server = await startTestServer({ dataDir: server.dataDir, signIn: false, identity: { adminPassword: undefined } });
      expect(printed).toEqual([]);
      expect(await server.login('admin', password)).toMatch(/^ey/);
    } finally {
      await server.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});
