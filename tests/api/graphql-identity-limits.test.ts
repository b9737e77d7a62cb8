import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from './helpers/fixtures.ts';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.ts';

/**
 * GraphQL's sign-in, password and upload mutations run the REST routes' own code (no in-process
 * HTTP): one set of attempt counters for both transports, and the same checks and errors.
 * Attack variants: alternating transports, aliasing a mutation many times in one request,
 * changing the username's case, and a spoofed X-Forwarded-For (the test servers trust no proxy).
 */

interface GraphqlAnswer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}

async function graphql(server: TestServer, token: string | null, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<ApiResponse<GraphqlAnswer>> {
  return server.as(token ? { token } : null).raw<GraphqlAnswer>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

/** A GraphQL multipart request (the spec's operations + map + file) carrying one file as $file. */
async function graphqlUpload(server: TestServer, token: string, query: string, file: { name: string; content: Buffer | string; type: string }, variables: Record<string, unknown> = {}) {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { ...variables, file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  const content = typeof file.content === 'string' ? file.content : new Uint8Array(file.content);
  form.append('0', new Blob([content], { type: file.type }), file.name);
  return server.as({ token }).raw<GraphqlAnswer>('/graphql', { method: 'POST', headers: { 'GraphQL-Preflight': '1' }, body: form });
}

const LOGIN = 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { accessToken } }';
const restLogin = (server: TestServer, username: string, password: string, headers: Record<string, string> = {}) =>
  server.as(null).raw('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username, password }) });
const gqlLogin = async (server: TestServer, username: string, password: string, headers: Record<string, string> = {}) =>
  (await graphql(server, null, LOGIN, { u: username, p: password }, headers)).body.errors?.[0]?.extensions;

describe('sign-in attempts: one counter for REST and GraphQL', () => {
  const LIMIT = 6;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signIn: false, identity: { rateLimits: { login: LIMIT, register: 100, recovery: 100 } } });
  });
  afterAll(async () => server?.close());

  it('alternating transports and the username\'s case reach the limit at the same total, then both refuse even the right password', async () => {
    const statuses: number[] = [];
    // Three failures on each transport, in turn, with the username in three casings.
    const names = ['admin', 'ADMIN', 'Admin'];
    for (let i = 0; i < LIMIT / 2; i++) {
      statuses.push((await restLogin(server, names[i % 3], `wrong-${i}`)).status);
      statuses.push((await gqlLogin(server, names[(i + 1) % 3], `wrong-${i}`))?.status);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(401));

    const rest = await restLogin(server, 'admin', server.admin.password);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ message: expect.stringMatching(/^Too many requests; try again in \d+ (seconds?|minutes?)$/), i18nMessage: 'error.tooManyRequests' });
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);

    const gql = await graphql(server, null, LOGIN, { u: 'admin', p: server.admin.password });
    expect(gql.body.data?.login ?? null).toBeNull();
    expect(gql.body.errors?.[0].extensions).toEqual({ status: 429, message: expect.stringMatching(/^Too many requests; try again in \d+ (seconds?|minutes?)$/), i18nMessage: 'error.tooManyRequests' });
    expect(gql.body.errors?.[0].message).toMatch(/^Too many requests/);
    expect(gql.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('a spoofed X-Forwarded-For does not open a new counter when no proxy is trusted', async () => {
    expect((await restLogin(server, 'admin', server.admin.password, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    expect((await gqlLogin(server, 'admin', server.admin.password, { 'x-forwarded-for': '198.51.100.9' }))?.status).toBe(429);
  });
});

describe('sign-in attempts aliased in one GraphQL request', () => {
  const LIMIT = 4;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signIn: false, identity: { rateLimits: { login: LIMIT, register: 100, recovery: 100 } } });
  });
  afterAll(async () => server?.close());

  it('aliased logins in one request: a failing one ends the request, so no more attempts run than are counted', async () => {
    const fields = Array.from({ length: LIMIT + 2 }, (_, i) => `l${i}: login(username: "admin", password: "wrong-${i}") { accessToken }`).join(' ');
    const statuses: unknown[][] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const answer = await graphql(server, null, `mutation { ${fields} }`);
      statuses.push((answer.body.errors ?? []).map((error) => error.extensions?.status));
    }
    // Mutations run in order and a failed non-null field stops the rest: one attempt per request.
    expect(statuses).toEqual([...Array(LIMIT).fill([401]), [429]]);
    expect((await restLogin(server, 'admin', server.admin.password)).status).toBe(429);
  });
});

describe('sign-in attempts in a batched GraphQL request', () => {
  const LIMIT = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signIn: false, identity: { rateLimits: { login: LIMIT, register: 100, recovery: 100 } } });
  });
  afterAll(async () => server?.close());

  it('a batch of logins (refused or run) never gets more wrong-password answers than the limit, with REST after it', async () => {
    const batch = Array.from({ length: LIMIT + 2 }, (_, i) => ({ query: LOGIN, variables: { u: 'admin', p: `wrong-${i}` } }));
    const answer = await server.as(null).raw<unknown>('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    const answers = Array.isArray(answer.body) ? (answer.body as GraphqlAnswer[]) : [];
    let wrongPassword = answers.filter((a) => a.errors?.[0]?.extensions?.status === 401).length;
    expect(wrongPassword).toBeLessThanOrEqual(LIMIT);
    for (let i = 0; i < LIMIT + 1; i++) {
      const status = (await restLogin(server, 'admin', `wrong-rest-${i}`)).status;
      if (status === 401) wrongPassword++;
      else expect(status).toBe(429);
    }
    expect(wrongPassword).toBe(LIMIT);
  });
});

describe('Google sign-in attempts: one counter for REST and GraphQL', () => {
  const LIMIT = 4;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signIn: false, identity: { rateLimits: { login: LIMIT, register: 100, recovery: 100 } } });
  });
  afterAll(async () => server?.close());

  it('counts every attempt on either transport (here refused as not configured) and then answers 429 on both', async () => {
    const googleGql = async () => (await graphql(server, null, 'mutation { googleLogin(credential: "x.y.z") { accessToken } }')).body.errors?.[0]?.extensions;
    const googleRest = () => server.as(null).post('/api/google/login', { credential: 'x.y.z' });
    const first = await googleRest();
    expect(first.status).toBe(501);
    const firstGql = await googleGql();
    expect(firstGql).toEqual({ status: 501, ...first.body });
    expect((await googleRest()).status).toBe(501);
    expect((await googleGql())?.status).toBe(501);
    expect((await googleRest()).status).toBe(429);
    expect(await googleGql()).toMatchObject({ status: 429, i18nMessage: 'error.tooManyRequests' });
    // Its own counter: the password sign-in is untouched.
    expect((await restLogin(server, 'admin', server.admin.password)).status).toBe(200);
  });
});

describe('password change over GraphQL', () => {
  const LIMIT = 5;
  let server: TestServer;
  let user: { _id: string; username: string };
  let roleId: string;
  const password = 'Original-pass-1';
  beforeAll(async () => {
    server = await startTestServer({ identity: { rateLimits: { login: LIMIT, register: 100, recovery: 100 } } });
    const role = await create(server, '/api/roles', { name: 'Nobody special', permissions: [] });
    roleId = role._id;
    user = await create(server, '/api/users', { name: 'Pat', username: 'pat', email: 'pat@example.com', phone: '600000000', password, role: roleId });
  });
  afterAll(async () => server?.close());

  const CHANGE = 'mutation($c: String!, $n: String!) { passwordChange(currentPassword: $c, newPassword: $n) }';

  it('gives REST\'s validation errors, shares its attempt counter and keeps only the changing session', async () => {
    const token = await server.signToken({ sub: user._id });
    const other = await server.signToken({ sub: user._id }, 3599);
    const rest = await server.as({ token }).post('/api/users/password/change', { currentPassword: 'wrong-current', newPassword: 'Brand-new-pass-1' });
    expect(rest.status).toBe(400);
    const gqlWrong = await graphql(server, token, CHANGE, { c: 'wrong-current', n: 'Brand-new-pass-1' });
    expect(gqlWrong.body.errors?.[0].extensions).toEqual({ status: 400, ...rest.body });
    expect(rest.body.inputErrors).toEqual([{ field: 'currentPassword', reason: 'validation.password.current' }]);

    const restShort = await server.as({ token }).post('/api/users/password/change', { currentPassword: password, newPassword: 'short' });
    const gqlShort = await graphql(server, token, CHANGE, { c: password, n: 'short' });
    expect(restShort.status).toBe(400);
    expect(gqlShort.body.errors?.[0].extensions).toEqual({ status: 400, ...restShort.body });

    const gqlSame = await graphql(server, token, CHANGE, { c: password, n: password });
    expect(gqlSame.body.errors?.[0].extensions?.inputErrors).toEqual([{ field: 'newPassword', reason: 'validation.password.different' }]);

    // Five attempts so far (2 REST, 3 GraphQL): the sixth is refused on both, even a correct one.
    const limited = await graphql(server, token, CHANGE, { c: password, n: 'Brand-new-pass-1' });
    expect(limited.body.errors?.[0].extensions).toMatchObject({ status: 429, i18nMessage: 'error.tooManyRequests' });
    expect((await server.as({ token }).post('/api/users/password/change', { currentPassword: password, newPassword: 'Brand-new-pass-1' })).status).toBe(429);
    expect((await server.login('pat', password))).toMatch(/^ey/);
    // Nothing changed: the other session still works.
    expect((await server.as({ token: other }).get('/api/auth/me')).status).toBe(200);
  });

  it('anonymous callers get REST\'s 401, and userPasswordChange needs user:update as REST does', async () => {
    const anonymous = await graphql(server, null, CHANGE, { c: password, n: 'Brand-new-pass-2' });
    expect(anonymous.body.errors?.[0].extensions).toMatchObject({ status: 401, i18nMessage: 'error.authRequired' });
    const token = await server.signToken({ sub: user._id });
    const RESET = 'mutation($id: ID!, $n: String!) { userPasswordChange(userId: $id, newPassword: $n) }';
    const target = await create(server, '/api/users', { name: 'Sam', username: 'sam', email: 'sam@example.com', phone: '600000001', password: 'Sams-pass-123', role: roleId });
    const forbidden = await graphql(server, token, RESET, { id: target._id, n: 'Reset-by-pat-1' });
    const restForbidden = await server.as({ token }).post(`/api/users/password/change/${target._id}`, { newPassword: 'Reset-by-pat-1' });
    expect(restForbidden.status).toBe(403);
    expect(forbidden.body.errors?.[0].extensions).toEqual({ status: 403, ...restForbidden.body });
    const reset = await graphql(server, server.admin.token, RESET, { id: target._id, n: 'Reset-by-admin-1' });
    expect(reset.body).toEqual({ data: { userPasswordChange: true } });
    expect(await server.login('sam', 'Reset-by-admin-1')).toMatch(/^ey/);
  });
});

describe('GraphQL uploads refuse what REST refuses, with the same errors', () => {
  const LIMIT = 2048;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ maxUploadBytes: LIMIT });
  });
  afterAll(async () => server?.close());

  const AVATAR = 'mutation($file: Upload!) { avatar(file: $file) { avatar } }';
  const UPLOAD = 'mutation($file: Upload!, $dir: String) { uploadFile(file: $file, dir: $dir) { filename size url } }';
  const filesIn = (dir: string) => {
    const root = path.join(server.dataDir, dir);
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => fs.statSync(path.join(root, String(f))).isFile()) : [];
  };

  it('avatar: a file that is not PNG or JPEG is REST\'s 415, whatever its name and type say', async () => {
    const file = { name: 'evil.png', content: '<svg onload="alert(1)"/>', type: 'image/png' };
    const rest = await server.upload('/api/users/avatar', file);
    expect(rest.status).toBe(415);
    const gql = await graphqlUpload(server, server.admin.token, AVATAR, file);
    expect(gql.body.errors?.[0].extensions).toEqual({ status: 415, ...rest.body });
    expect(rest.body.i18nMessage).toBe('error.unsupportedImage');
  });

  it('avatar: a file over MAX_UPLOAD_BYTES is REST\'s 413, and the avatar is unchanged', async () => {
    const big = { name: 'big.png', content: Buffer.concat([png, Buffer.alloc(LIMIT, 1)]), type: 'image/png' };
    const rest = await server.upload('/api/users/avatar', big);
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ message: expect.stringContaining('MAX_UPLOAD_BYTES'), i18nMessage: 'error.fileTooLarge' });
    const gql = await graphqlUpload(server, server.admin.token, AVATAR, big);
    expect(gql.body.errors?.[0].extensions).toEqual({ status: 413, ...rest.body });
    expect((await server.get('/api/auth/me')).body.avatar ?? null).toBeNull();
    expect(filesIn('avatars')).toEqual([]);
    const ok = await graphqlUpload(server, server.admin.token, AVATAR, { name: 'me.png', content: png, type: 'image/png' });
    expect(ok.body.data?.avatar.avatar).toMatch(/^\/files\/avatars\/.+\.png$/);
  });

  it('uploadFile: over MAX_UPLOAD_BYTES is REST\'s 413 and leaves no partial file; exactly the limit is stored whole', async () => {
    const big = { name: 'big.bin', content: Buffer.alloc(LIMIT + 1, 1), type: 'application/octet-stream' };
    const rest = await server.upload('/api/file/big', big);
    expect(rest.status).toBe(413);
    const gql = await graphqlUpload(server, server.admin.token, UPLOAD, big, { dir: 'big' });
    expect(gql.body.errors?.[0].extensions).toEqual({ status: 413, ...rest.body });
    expect(filesIn('big')).toEqual([]);
    const ok = await graphqlUpload(server, server.admin.token, UPLOAD, { ...big, content: Buffer.alloc(LIMIT, 1) }, { dir: 'big' });
    expect(ok.body.data?.uploadFile.size, ok.text).toBe(LIMIT);
  });

  it('uploadFile: a bad or reserved directory is REST\'s 400', async () => {
    for (const dir of ['../etc', 'exports']) {
      const rest = await server.upload(`/api/file/${encodeURIComponent(dir)}`, { name: 'a.txt', content: 'x' });
      const gql = await graphqlUpload(server, server.admin.token, UPLOAD, { name: 'a.txt', content: 'x', type: 'text/plain' }, { dir });
      expect(gql.body.errors?.[0].extensions?.status, dir).toBe(400);
      if (rest.status === 400) expect(gql.body.errors?.[0].extensions).toEqual({ status: 400, ...rest.body });
    }
  });
});

describe('no in-process HTTP in the GraphQL layer', () => {
  it('server/graphql neither injects requests nor forwards to REST', () => {
    const dir = path.join(import.meta.dirname, '../../server/graphql');
    for (const name of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(text, name).not.toMatch(/\.inject\(|forwardToRest|forward-to-rest/);
    }
  });
});
