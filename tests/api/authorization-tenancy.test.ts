import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowAllAuthorizer, type Authorizer, type RoutePermission } from '../../server/http/authorizer.ts';
import type { RequestContext } from '../../server/http/request-context.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';

describe('authorizer seam', () => {
  let server: TestServer;
  const seen: RoutePermission[] = [];
  // Denies writes to bots, demands "authentication" on tenants, lets the rest through.
  const authorizer: Authorizer = ({ request, required }) => {
    seen.push(required);
    if (request?.headers['x-test-anonymous'] === '1') return 'unauthenticated';
    if (required.entity === 'bot' && required.action !== 'view') return 'deny';
    return 'allow';
  };
  beforeAll(async () => {
    server = await startTestServer({ authorizer });
  });
  afterAll(async () => server.close());

  it('a denying authorizer gets 403 in the error shape and nothing is written', async () => {
    const res = await server.post('/api/bots', minimalBot('Denied'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Missing permission bot:create', i18nMessage: 'error.forbidden' });
    expect((await server.get('/api/bots')).body).toEqual({ items: [], total: 0 });
    expect(seen.at(-1)).toEqual({ entity: 'bot', action: 'view', permission: 'bot:view', alternatives: ['bot:manage'] });
  });

  it('every route declares the permission its model names', async () => {
    seen.length = 0;
    await server.get('/api/bots/export');
    await server.upload('/api/bots/import?dryRun=true', { name: 'b.json', content: '[]' });
    await server.put('/api/bots/x', {});
    await server.del('/api/bots/x');
    await server.get('/api/user-api-keys/search?search=x');
    expect(seen.map((s) => `${s.permission}|${s.alternatives.join(',')}`)).toEqual([
      'bot:view|bot:manage',
      'bot:create|bot:manage',
      'bot:update|bot:manage',
      'bot:delete|bot:manage',
      'userApiKey:view|userApiKey:manage,userApiKey:myView',
    ]);
  });

  it('unauthenticated is a 401', async () => {
    const res = await server.raw('/api/tenants', { headers: { 'x-test-anonymous': '1' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Authentication required', i18nMessage: 'error.authRequired' });
  });

  it('health and unknown routes do not go through the authorizer', async () => {
    seen.length = 0;
    expect((await server.get('/api/health')).status).toBe(200);
    expect(seen).toEqual([]);
  });
});

describe('tenant and owner scoping through an injected request context', () => {
  let server: TestServer;
  /** x-tenant / x-user / x-perms headers stand in for what the identity issue will read from a token. */
  const resolveContext = (request: { headers: Record<string, string | string[] | undefined> }): RequestContext => ({
    tenantId: (request.headers['x-tenant'] as string | undefined) ?? null,
    userId: (request.headers['x-user'] as string | undefined) ?? null,
    permissions: ((request.headers['x-perms'] as string | undefined) ?? '*').split(','),
  });
  const as = (tenant: string | null, user: string | null = null, perms = '*') => ({
    'content-type': 'application/json',
    ...(tenant ? { 'x-tenant': tenant } : {}),
    ...(user ? { 'x-user': user } : {}),
    'x-perms': perms,
  });
  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const { 'content-type': contentType, ...rest } = headers;
    return body === undefined
      ? server.raw(path, { method, headers: rest })
      : server.raw(path, { method, headers: { ...rest, 'content-type': contentType }, body: JSON.stringify(body) });
  };

  beforeAll(async () => {
    // Scoping is under test here, not permissions (identity-*.test.ts cover those).
    server = await startTestServer({ resolveContext, authorizer: allowAllAuthorizer, signIn: false });
  });
  afterAll(async () => server.close());

  it('forces the tenant on create, filters reads, 404s across tenants', async () => {
    const a = await call('POST', '/api/bots', as('tenant-a'), minimalBot('A bot', { tenant: 'tenant-b' }));
    expect(a.status).toBe(201);
    expect(a.body.tenant).toBe('tenant-a');
    const b = await call('POST', '/api/bots', as('tenant-b'), minimalBot('B bot'));
    expect(b.body.tenant).toBe('tenant-b');

    const listA = await call('GET', '/api/bots', as('tenant-a'));
    expect(listA.body.items.map((r: any) => r.name)).toEqual(['A bot']);
    expect(listA.body.total).toBe(1);
    expect((await call('GET', '/api/bots/search?search=bot', as('tenant-a'))).body.map((r: any) => r.name)).toEqual(['A bot']);
    expect((await call('GET', `/api/bots/ids/${a.body._id},${b.body._id}`, as('tenant-a'))).body.map((r: any) => r.name)).toEqual(['A bot']);

    // Tenant A cannot read, change or delete tenant B's bot: it does not exist for them.
    expect((await call('GET', `/api/bots/${b.body._id}`, as('tenant-a'))).status).toBe(404);
    expect((await call('PUT', `/api/bots/${b.body._id}`, as('tenant-a'), { name: 'hijack' })).status).toBe(404);
    expect((await call('DELETE', `/api/bots/${b.body._id}`, as('tenant-a'))).status).toBe(404);
    expect((await call('GET', `/api/bots/${b.body._id}`, as('tenant-b'))).body.name).toBe('B bot');

    // A tenant cannot move its record to another tenant.
    const moved = await call('PUT', `/api/bots/${a.body._id}`, as('tenant-a'), { tenant: 'tenant-b', name: 'A renamed' });
    expect(moved.body).toMatchObject({ tenant: 'tenant-a', name: 'A renamed' });

    // The platform administrator (no tenant) sees both.
    expect((await call('GET', '/api/bots', as(null))).body.total).toBe(2);

    // Exports are scoped too.
    const exp = await call('GET', '/api/bots/export?headers=name', as('tenant-b'));
    const rows = await (await fetch(server.baseUrl + exp.body.url)).json();
    expect(rows.map((r: any) => r.name)).toEqual(['B bot']);
  });

  it('refs must point at records of the caller\'s tenant', async () => {
    const k = await call('POST', '/api/knowledge', as('tenant-b'), { name: 'B knowledge', toolDescription: 't' });
    const res = await call('POST', '/api/bots', as('tenant-a'), minimalBot('Cross', { knowledge: k.body._id }));
    expect(res.status).toBe(400);
    expect(res.body.inputErrors).toEqual([{ field: 'knowledge', reason: 'validation.refNotFound' }]);
  });

  it('uniqueness is per tenant unless global', async () => {
    // bottracestatus is not tenant-scoped: unique everywhere. It is shared by every tenant, so
    // only platform callers (no tenant) write it (tests/api/shared-lookup-tables.test.ts).
    expect((await call('POST', '/api/bot-trace-statuses', as(null), { name: 'shared' })).status).toBe(201);
    expect((await call('POST', '/api/bot-trace-statuses', as(null), { name: 'shared' })).status).toBe(409);
    expect((await call('POST', '/api/bot-trace-statuses', as('tenant-b'), { name: 'shared' })).status).toBe(403);
  });

  it('sets the owner on create and limits "own only" callers to their records', async () => {
    const mine = await call('POST', '/api/user-api-keys', as('tenant-a', 'user-1'), { name: 'mine' });
    expect(mine.status).toBe(201);
    expect(mine.body.user).toBeNull(); // user-1 is not a stored user, so the populated ref is null...
    await call('POST', '/api/user-api-keys', as('tenant-a', 'user-2'), { name: 'theirs' });
    // ...but the owner column holds it: an own-only caller sees only their key.
    const own = await call('GET', '/api/user-api-keys', as('tenant-a', 'user-1', 'userApiKey:myView'));
    expect(own.body.items.map((r: any) => r.name)).toEqual(['mine']);
    const all = await call('GET', '/api/user-api-keys', as('tenant-a', 'user-1', 'userApiKey:view'));
    expect(all.body.items.map((r: any) => r.name)).toEqual(['mine', 'theirs']);
  });
});
