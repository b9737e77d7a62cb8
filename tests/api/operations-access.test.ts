// Every route's operation checks its own caller (server/operations): called directly, with no
// transport in between, each refuses an anonymous caller (401) and a signed-in caller without its
// permissions (403), admits a caller holding exactly them, and admits system(). Read from the
// server's own route list, so a route added tomorrow is covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { system } from '../../server/entities/system-context.ts';
import { registerRouteAuthorization, type RouteAccess } from '../../server/http/authorize-route.ts';
import { HttpError } from '../../server/http/http-error.ts';
import type { RequestContext } from '../../server/http/request-context.ts';
import type { Operation } from '../../server/operations/define-operation.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

const context = (permissions: string[], userId: string | null = 'someone'): { context: RequestContext } => ({ context: { userId, tenantId: null, permissions } });

async function statusOf(work: Promise<unknown>): Promise<number | 'ran'> {
  try {
    await work;
    return 'ran';
  } catch (error) {
    return error instanceof HttpError ? error.statusCode : 'ran';
  }
}

/** Each route's operation once (GET and HEAD share one). */
function guarded(): Array<{ name: string; route: RouteAccess; operation: Operation<never, unknown> }> {
  const seen = new Set<unknown>();
  return server.forja.routes
    .filter((route) => route.operation && route.access !== 'public' && !seen.has(route.operation) && seen.add(route.operation))
    .map((route) => ({ name: `${route.method} ${route.url}`, route, operation: route.operation as Operation<never, unknown> }));
}

describe('every route runs an operation that checks its own caller', () => {
  it('every route that is not public has an operation', () => {
    const bare = server.forja.routes.filter((route) => route.access !== 'public' && !route.operation).map((route) => `${route.method} ${route.url}`);
    expect(bare).toEqual([]);
    expect(server.forja.routes.filter((route) => route.url === '/api/live-model').map((route) => route.access)).toContain('authenticated');
  });

  it('a route that declares an access of its own instead of an operation is refused when registered', async () => {
    for (const config of [{ permission: { entity: 'x', action: 'view', permission: 'x:view', alternatives: [] } }, { authenticated: true }, { authenticated: false }]) {
      const app = Fastify({ logger: false });
      registerRouteAuthorization(app);
      expect(() => app.get('/x', { config: config as never }, async () => 'x')).toThrow(/routes no longer decide access.*config\.operation/);
      await app.close().catch(() => undefined);
    }
  });

  it('the studio\'s live model refuses an anonymous caller over HTTP, and serves a signed-in one', async () => {
    expect((await server.as(null).get('/api/live-model')).status).toBe(401);
    expect((await server.get('/api/live-model')).status).toBe(200);
    // The list covers the features this check is about (a route list that lost them would pass the rules below).
    const names = guarded().map(({ name }) => name);
    for (const expected of ['POST /api/contacts/:id/merge', 'DELETE /api/rag/clear/:id', 'POST /api/users/password/change/:userId', 'GET /api/settings', 'GET /api/jobs', 'POST /api/file', 'GET /api/chat/analytics', 'POST /api/chat/preview/:botId', 'GET /api/roles/all']) {
      expect(names, expected).toContain(expected);
    }
  });

  it('called directly, each operation refuses an anonymous caller (401) and a caller without its permissions (403) before reading its input', async () => {
    const wrong: string[] = [];
    for (const { name, route, operation } of guarded()) {
      // No input at all: a refusal must come before the operation reads any.
      const anonymous = await statusOf(operation(context([], null) as never, undefined as never));
      if (anonymous !== 401) wrong.push(`${name} anonymous: ${anonymous}`);
      if (route.access === 'authenticated') continue;
      // Every permission of the catalogue's other entities, but none of the ones this operation names.
      const unrelated = await statusOf(operation(context(['unrelated:view', 'unrelated:manage']) as never, undefined as never));
      if (unrelated !== 403) wrong.push(`${name} without ${route.access}: ${unrelated}`);
    }
    expect(wrong).toEqual([]);
  });

  it('each operation admits a caller holding exactly its permissions, and system()', async () => {
    const wrong: string[] = [];
    for (const { name, operation } of guarded()) {
      const access = operation.access;
      const held = access === 'signedIn' || access === 'public' ? [] : access.map((required) => required.permission);
      for (const [who, caller] of [['holder', context(held)], ['system()', { context: system() }]] as const) {
        const status = await statusOf(operation.admit(caller));
        if (status !== 'ran') wrong.push(`${name} ${who}: ${status}`);
      }
      if (Array.isArray(access)) {
        // Each permission listed is needed: holding all but one is a 403.
        for (let i = 0; i < held.length && held.length > 1; i++) {
          const status = await statusOf(operation.admit(context(held.filter((_, j) => j !== i))));
          if (status !== 403) wrong.push(`${name} without ${held[i]}: ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
