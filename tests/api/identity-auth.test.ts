import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create } from './helpers/fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const INVALID = { message: 'Invalid credentials', i18nMessage: 'error.invalidCredentials' };

describe('sign-in', () => {
  it('returns a JWT with sub, role, tenant and exp (default lifetime 3600 s)', async () => {
    const res = await server.as(null).post('/api/auth/login', { username: 'admin', password: server.admin.password });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['accessToken']);
    const claims = decodeJwt(res.body.accessToken);
    expect(claims).toMatchObject({ sub: expect.any(String), role: expect.any(String), tenant: null });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('wrong password, unknown user and inactive user get the same 401', async () => {
    const role = (await server.get('/api/roles/search?search=User')).body.find((r: any) => r.name === 'User');
    await create(server, '/api/users', { name: 'Idle', username: 'idle', email: 'idle@example.com', phone: '1', password: 'idle-pass-1', role: role._id, active: false });
    const anonymous = server.as(null);
    const answers = await Promise.all([
      anonymous.post('/api/auth/login', { username: 'admin', password: 'wrong-password' }),
      anonymous.post('/api/auth/login', { username: 'nobody', password: 'whatever-123' }),
      anonymous.post('/api/auth/login', { username: 'idle', password: 'idle-pass-1' }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });

  it('blank fields are a 400 naming them', async () => {
    const res = await server.as(null).post('/api/auth/login', { username: '  ', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.inputErrors).toEqual([
      { field: 'username', reason: 'validation.required' },
      { field: 'password', reason: 'validation.required' },
    ]);
  });

  it('GET /api/auth/me describes the caller with role permissions and never the password', async () => {
    const res = await server.get('/api/auth/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: res.body._id,
      username: 'admin',
      email: 'admin@forja.invalid',
      role: { id: expect.any(String), name: 'Admin', permissions: expect.arrayContaining(['user:manage', 'setting:manage']) },
      tenant: null,
      avatar: null,
    });
    expect(res.text).not.toContain('password');
    expect(res.text).not.toContain('$argon2');
  });
});

describe('protected routes', () => {
  it('no token, a garbage token and an unknown scheme are 401 Authentication required', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer not-a-jwt' }, { authorization: 'Basic YTpi' }]) {
      const res = await server.as(null).raw('/api/bots', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required', i18nMessage: 'error.authRequired' });
    }
    expect((await server.as(null).get('/api/auth/me')).status).toBe(401);
  });

  it('an expired token is a 401 with error.tokenExpired', async () => {
    const me = (await server.get('/api/auth/me')).body;
    const expired = await server.signToken({ sub: me.id }, -120);
    const res = await server.as({ token: expired }).get('/api/bots');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Token expired', i18nMessage: 'error.tokenExpired' });
  });

  it('a token signed with another key is refused', async () => {
    const me = (await server.get('/api/auth/me')).body;
    const other = await startTestServer();
    try {
      const foreign = await other.signToken({ sub: me.id });
      expect((await server.as({ token: foreign }).get('/api/bots')).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('deactivating a user locks their token out on the next request', async () => {
    const role = (await server.get('/api/roles/search?search=User')).body.find((r: any) => r.name === 'User');
    const user = await create(server, '/api/users', { name: 'Soon', username: 'soon', email: 'soon@example.com', phone: '1', password: 'soon-pass-1', role: role._id });
    const token = await server.login('soon', 'soon-pass-1');
    expect((await server.as({ token }).get('/api/auth/me')).status).toBe(200);
    await server.put(`/api/users/${user._id}`, { active: false });
    expect((await server.as({ token }).get('/api/auth/me')).status).toBe(401);
  });

  it('public routes work without a token and with a stale one', async () => {
    expect((await server.as(null).get('/api/health')).status).toBe(200);
    expect((await server.as({ token: 'stale' }).post('/api/auth/login', { username: 'admin', password: server.admin.password })).status).toBe(200);
  });

  it('a valid token without the permission is a 403', async () => {
    const role = (await server.get('/api/roles/search?search=User')).body.find((r: any) => r.name === 'User');
    await create(server, '/api/users', { name: 'Plain', username: 'plain', email: 'plain@example.com', phone: '1', password: 'plain-pass-1', role: role._id });
    const token = await server.login('plain', 'plain-pass-1');
    const res = await server.as({ token }).get('/api/bots');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Missing permission bot:view', i18nMessage: 'error.forbidden' });
  });

  it('uploads need a signed-in caller (any role)', async () => {
    expect((await server.as(null).upload('/api/file/files', { name: 'a.txt', content: 'x' })).status).toBe(401);
    expect((await server.upload('/api/file/files', { name: 'a.txt', content: 'x' })).status).toBe(201);
  });
});
