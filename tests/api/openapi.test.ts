import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
let document: { openapi: string; paths: Record<string, Record<string, { 'x-permission': string; responses: Record<string, unknown>; security?: unknown[] }>>; components: { schemas: Record<string, unknown> } };

beforeAll(async () => {
  server = await startTestServer();
  const response = await server.as(null).get('/api/docs/json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(async () => { await server.close(); });

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document at /api/docs', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? null).slice(0, 2000)).toBe(true);
  });

  test('lists every REST route the server registered, with its permission', () => {
    const registered = server.forja.routes.filter((route) =>
      (route.url.startsWith('/api') || route.url.startsWith('/files') || route.url === '/graphql')
      && !route.url.startsWith('/api/docs') && !['HEAD', 'OPTIONS'].includes(route.method));
    expect(registered.length).toBeGreaterThan(100);
    const missing = registered.filter((route) => !document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()]);
    expect(missing).toEqual([]);
    for (const route of registered) {
      const operation = document.paths[toOpenApiPath(route.url)][route.method.toLowerCase()];
      expect(operation['x-permission'], `${route.method} ${route.url}`).toBe(route.access);
      if (route.access === 'public') expect(operation.security).toEqual([]);
      else expect(operation.responses).toHaveProperty('401');
    }
  });

  test('the generic entities carry their request and record schemas', () => {
    const create = document.paths['/api/bots'].post as unknown as { requestBody: { content: Record<string, { schema: { $ref: string } }> } };
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/BotCreate');
    expect(document.components.schemas.BotCreate).toMatchObject({ required: ['name', 'description', 'systemPrompt', 'systemPromptWithKnowledge'] });
    expect(document.paths['/api/bots'].get['x-permission']).toBe('bot:view');
    expect(document.paths['/api/bots/{id}'].delete['x-permission']).toBe('bot:delete');
    expect(JSON.stringify(document.components.schemas.User)).not.toContain('password');
  });

  test('the interactive UI is served', async () => {
    const response = await fetch(`${server.baseUrl}/api/docs/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger');
  });
});
