import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * Issue 31 item 4: X-Forwarded-For counts only when it comes from a proxy TRUST_PROXY names, and
 * then only the hop that proxy added. A client's own header never moves it into an API key's
 * allow list nor out of its per-IP rate-limit bucket.
 */
const PROXY = '10.0.0.1';
const CLIENT = '198.51.100.20';
const ALLOWED = '203.0.113.9';
const SPOOFS = [ALLOWED, `${ALLOWED}, ${ALLOWED}`, `${ALLOWED},${PROXY}`, `127.0.0.1, ${ALLOWED}`, `unknown, ${ALLOWED}`];

interface Setup {
  label: string;
  trustProxy?: string;
}
const SETUPS: Setup[] = [
  { label: 'no TRUST_PROXY' },
  { label: `TRUST_PROXY=${PROXY}`, trustProxy: PROXY },
  { label: 'TRUST_PROXY=10.0.0.0/8', trustProxy: '10.0.0.0/8' },
  { label: 'TRUST_PROXY=1 (hops)', trustProxy: '1' },
];

describe.each(SETUPS)('$label', ({ trustProxy }) => {
  let server: TestServer;
  let secret: string;
  const LOGIN_LIMIT = 3;
  beforeAll(async () => {
    server = await startTestServer({ ...(trustProxy ? { trustProxy } : {}), identity: { rateLimits: { login: LOGIN_LIMIT, register: 100, recovery: 100 } } });
    const key = await server.post('/api/user-api-keys', { name: 'allow-listed', ipv4: [ALLOWED] });
    expect(key.status, key.text).toBe(201);
    secret = key.body.secret;
  });
  afterAll(async () => server?.close());

  const me = (remoteAddress: string, forwarded?: string) =>
    server.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress, headers: { 'x-api-key': secret, ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) } });

  it('a client connecting directly cannot claim an allow-listed address', async () => {
    // A hop count believes the nearest hop whoever it is: it is for a server only proxies can
    // reach (README.md "Scaling out"); the client-written part is still ignored (next tests).
    if (trustProxy === '1') return;
    for (const spoof of SPOOFS) {
      const res = await me(CLIENT, spoof);
      expect(res.statusCode, spoof).toBe(401);
      expect(res.json()).toMatchObject({ message: 'IP not allowed', i18nMessage: 'error.ipNotAllowed' });
    }
  });

  it('through the trusted proxy, only the address the proxy saw counts', async () => {
    if (!trustProxy) {
      // No proxy trusted: the proxy's own address is the caller's, whatever the header says.
      expect((await me(PROXY, ALLOWED)).statusCode).toBe(401);
      return;
    }
    // The proxy set (or appended) the real client's address: allowed when that address is.
    expect((await me(PROXY, ALLOWED)).statusCode).toBe(200);
    expect((await me(PROXY, `198.51.100.99, ${ALLOWED}`)).statusCode).toBe(200);
    // The client wrote the allowed address itself; the proxy appended the real one.
    for (const spoof of [`${ALLOWED}, ${CLIENT}`, `${ALLOWED}, ${ALLOWED}, ${CLIENT}`]) {
      expect((await me(PROXY, spoof)).statusCode, spoof).toBe(401);
    }
  });

  it('per-IP rate limits: a new X-Forwarded-For on every try does not open a new bucket', async () => {
    const statuses: number[] = [];
    const source = trustProxy ? PROXY : CLIENT;
    for (let i = 0; i < LOGIN_LIMIT + 3; i++) {
      // Without a trusted proxy every header is ignored; through one, the client-written part is.
      const forwarded = trustProxy ? `192.0.2.${i + 1}, ${CLIENT}` : `192.0.2.${i + 1}`;
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: source,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
        payload: JSON.stringify({ username: 'admin', password: `wrong-${i}` }),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, LOGIN_LIMIT).every((s) => s === 401), statuses.join()).toBe(true);
    expect(statuses.slice(LOGIN_LIMIT).every((s) => s === 429), statuses.join()).toBe(true);
  });
});
