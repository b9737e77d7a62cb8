import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_ENDPOINTS, entityEndpointsOf } from '../../contract/endpoints/entity-endpoints.ts';
import { entities } from '../../server/generated/entities.ts';
import { routePermission } from '../../server/entities/route-permission.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * The server serves exactly the endpoint table of contract/endpoints (the one the REST transport
 * and the OpenAPI document read): every endpoint an entity's flags allow is registered with the
 * permission of its action, and none its flags forbid is.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const generic = Object.values(entities).filter((model) => model.api.endpoints === 'generic');

describe('the endpoint table (contract/endpoints/entity-endpoints.ts)', () => {
  it('covers every generic entity', () => {
    expect(generic.length).toBeGreaterThan(5);
  });

  it.each(generic.map((model) => [model.name, model] as const))('%s: the routes its flags allow, each with its action permission', (_name, model) => {
    const registered = new Map(server.forja.routes.map((route) => [`${route.method} ${route.url}`, route.access]));
    const served = new Set(entityEndpointsOf(model.flags).map(([, endpoint]) => `${endpoint.method} ${model.api.basePath}${endpoint.path}`));
    for (const [name, endpoint] of entityEndpointsOf(model.flags)) {
      const key = `${endpoint.method} ${model.api.basePath}${endpoint.path}`;
      expect(registered.get(key), `${name}: ${key}`).toBe(routePermission(model, endpoint.action).permission);
    }
    for (const [name, endpoint] of Object.entries(ENTITY_ENDPOINTS)) {
      const key = `${endpoint.method} ${model.api.basePath}${endpoint.path}`;
      // A route another endpoint shares (POST base is create; a feature's own route) is not "forbidden".
      if (!served.has(key) && endpoint.flag && !model.flags[endpoint.flag]) expect(registered.has(key), `${name}: ${key} (${endpoint.flag} is false)`).toBe(false);
    }
  });
});
