// Authorization matrix generated from the models: every generic route of every entity, called
// anonymously, with an expired token, by a role lacking the permission, by a role holding exactly
// the permission (or its own-records variant) and by a role holding only entity:manage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import { entities } from '../../server/generated/entities.ts';
import { startTestServer, type ApiClient, type TestServer } from './helpers/test-server.ts';
import { expectNoLeaks, userWith } from './helpers/fixtures.ts';

interface MatrixRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  action: 'view' | 'create' | 'update' | 'delete';
}

const MISSING_ID = '00000000-0000-7000-8000-000000000000';

function routesOf(model: EntityModel): MatrixRoute[] {
  const base = model.api.basePath;
  const routes: MatrixRoute[] = [
    { method: 'GET', path: base, action: 'view' },
    { method: 'GET', path: `${base}/${MISSING_ID}`, action: 'view' },
    { method: 'GET', path: `${base}/search?search=x`, action: 'view' },
    { method: 'GET', path: `${base}/find`, action: 'view' },
    { method: 'GET', path: `${base}/find-one`, action: 'view' },
    { method: 'GET', path: `${base}/ids/${MISSING_ID}`, action: 'view' },
  ];
  if (model.flags.exportable) routes.push({ method: 'GET', path: `${base}/export?format=${model.export.formats[0]}`, action: 'view' });
  if (model.flags.creatable) routes.push({ method: 'POST', path: base, action: 'create' });
  if (model.flags.importable) routes.push({ method: 'POST', path: `${base}/import`, action: 'create' });
  if (model.flags.editable) routes.push({ method: 'PUT', path: `${base}/${MISSING_ID}`, action: 'update' });
  if (model.flags.deletable) routes.push({ method: 'DELETE', path: `${base}/${MISSING_ID}`, action: 'delete' });
  return routes;
}

const models = Object.values(entities).filter((m) => m.api.endpoints === 'generic');

function call(client: ApiClient, route: MatrixRoute) {
  if (route.method === 'GET') return client.get(route.path);
  if (route.method === 'DELETE') return client.del(route.path);
  if (route.path.endsWith('/import')) return client.upload(`${route.path}?dryRun=true`, { name: 'rows.json', content: '[]' });
  return route.method === 'POST' ? client.post(route.path, {}) : client.put(route.path, {});
}

let server: TestServer;
let anonymous: ApiClient;
let expired: ApiClient;
let powerless: ApiClient;
beforeAll(async () => {
  server = await startTestServer();
  anonymous = server.as(null);
  const nobody = await userWith(server, []);
  powerless = nobody.client;
  expired = server.as({ token: await server.signToken({ sub: nobody.user._id }, -60) });
});
afterAll(async () => {
  expectNoLeaks(server);
  await server.close();
});

describe.each(models.map((model) => [model.name, model] as const))('%s', (_name, model) => {
  const routes = routesOf(model);
  const p = model.permissions;
  const label = (r: MatrixRoute) => `${r.method} ${r.path.replace(MISSING_ID, ':id')}`;

  it.each(routes.map((r) => [label(r), r] as const))('%s: no token 401, expired 401 tokenExpired, no permission 403', async (_l, route) => {
    const none = await call(anonymous, route);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Authentication required', i18nMessage: 'error.authRequired' });
    const old = await call(expired, route);
    expect(old.status).toBe(401);
    expect(old.body.i18nMessage).toBe('error.tokenExpired');
    const denied = await call(powerless, route);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: `Missing permission ${p[route.action]}`, i18nMessage: 'error.forbidden' });
  });

  it('each action is allowed by exactly its permission (or :manage); other actions stay 403', async () => {
    const actions = [...new Set(routes.map((r) => r.action))];
    const holders = new Map<MatrixRoute['action'], ApiClient>();
    for (const action of actions) holders.set(action, (await userWith(server, [p[action]])).client);
    const manager = (await userWith(server, [p.manage])).client;
    for (const route of routes) {
      for (const [action, client] of holders) {
        const res = await call(client, route);
        if (action === route.action) {
          expect([401, 403], `${label(route)} with ${p[action]}: ${res.text}`).not.toContain(res.status);
          if (route.method === 'GET' && !route.path.includes(MISSING_ID) && !route.path.includes('find-one')) expect(res.status).toBe(200);
        } else {
          expect(res.status, `${label(route)} with ${p[action]}`).toBe(403);
        }
      }
      const managed = await call(manager, route);
      expect([401, 403], `${label(route)} with ${p.manage}: ${managed.text}`).not.toContain(managed.status);
    }
  });

  if (p.viewOwn || p.createOwn) {
    it('own-records permissions grant listing and creating', async () => {
      const own = (await userWith(server, [p.viewOwn, p.createOwn].filter((x): x is string => x !== null))).client;
      expect((await own.get(model.api.basePath)).status).toBe(200);
      expect([401, 403]).not.toContain((await own.post(model.api.basePath, {})).status);
      expect((await own.put(`${model.api.basePath}/${MISSING_ID}`, {})).status).toBe(403);
    });
  }
});

describe('hand-written routes', () => {
  it('every route is public only if it is meant to be', async () => {
    const publicRoutes = server.forja.routes
      .filter((r) => r.access === 'public' && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url}`);
    const allowed = [
      /^GET \/api\/health$/,
      /^GET \/api\/health\/ready$/,
      /^GET \/api\/settings\/public$/,
      /^POST \/api\/auth\/login$/,
      /^POST \/api\/users\/register$/,
      /^POST \/api\/users\/password\/recovery\/(request|complete)$/,
      /^POST \/api\/google\/(login|logout)$/,
      /^(GET|POST) \/api\/chat\//,
      // The embeddable chat widget's script (issue 20): static code, no data; the bot's origins are checked by /api/chat.
      /^GET \/widget\.js$/,
      /^GET \/files\/\*$/,
      // Export downloads: the signed, short-lived link is the credential (server/files/export-files.ts).
      /^GET \/files\/exports\/:name$/,
      // Documentation and the GraphQL endpoint (its operations check permissions themselves).
      /^GET \/api\/(docs|openapi)/,
      /^(GET|POST) \/(api\/)?graphql$/,
      /^GET \/graphiql/,
      /^GET \/\*$/,
      /^GET \/$/,
    ];
    expect(publicRoutes.filter((route) => !allowed.some((pattern) => pattern.test(route)))).toEqual([]);
  });

  it('settings, lookups and account routes need a caller', async () => {
    for (const [method, path] of [
      ['GET', '/api/settings'], ['GET', '/api/settings/grouped'], ['GET', '/api/settings/smtp.host'], ['PATCH', '/api/settings/smtp.host'],
      ['GET', '/api/permissions'], ['GET', '/api/roles/all'], ['GET', '/api/roles/assignable'], ['GET', '/api/tenants/all'], ['GET', '/api/auth/me'],
      ['POST', '/api/users/password/change'], [`POST`, `/api/users/password/change/${MISSING_ID}`], ['POST', '/api/users/avatar'],
      ['POST', '/api/file/files'],
    ] as const) {
      const res = await anonymous.raw(path, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
