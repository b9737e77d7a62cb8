import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { OpenApiContract, type OpenApiDocument } from './helpers/openapi-contract.ts';
import { entities } from '../../server/generated/entities.ts';
import { FILTER_OPERATORS } from '../../contract/model/entity-model.ts';

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

type Parameter = { name: string; in: string; schema: { enum?: string[]; pattern?: string; default?: unknown } };
const operationOf = (path: string, method: string) =>
  (document.paths[path]?.[method] as unknown as { parameters?: Parameter[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }) ?? null;
const parameter = (path: string, method: string, name: string) => operationOf(path, method)!.parameters!.find((p) => p.name === name)!;

describe('the document says what the server answers and enforces', () => {
  test('every operation lists the statuses any route can answer; signed-in ones 401/403, bodies 415, writes 409', () => {
    let operations = 0;
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        operations += 1;
        const codes = Object.keys(operation.responses);
        const where = `${method.toUpperCase()} ${path}`;
        for (const code of ['400', '404', '405', '413', '429', '500']) expect(codes, where).toContain(code);
        if (operation['x-permission'] !== 'public') expect(codes, where).toEqual(expect.arrayContaining(['401', '403']));
        if (['post', 'put', 'patch'].includes(method)) expect(codes, where).toContain('415');
        if (method === 'delete') expect(codes, where).toContain('409');
        // Every error answer carries the error shape (GraphQL: its own response shape, or the error shape).
        const schema = JSON.stringify((operation.responses['400'] as { content: Record<string, { schema: unknown }> }).content['application/json'].schema);
        expect(schema, where).toContain('#/components/schemas/Error');
      }
    }
    expect(operations).toBeGreaterThan(150);
    // The statuses Schemathesis found undocumented, each where the server answers it.
    expect(Object.keys(operationOf('/api/users/register', 'post')!.responses)).toEqual(expect.arrayContaining(['201', '403', '409', '415', '429']));
    expect(Object.keys(operationOf('/api/google/login', 'post')!.responses)).toContain('501');
    expect(Object.keys(operationOf('/api/bots/import', 'post')!.responses)).toEqual(expect.arrayContaining(['406', '413', '415']));
    expect(Object.keys(operationOf('/files/exports/{name}', 'get')!.responses)).toEqual(expect.arrayContaining(['403', '410']));
  });

  test('filters, orderBy, export formats, headers, separator and locale are constrained from the model', () => {
    const generic = Object.values(entities).filter((model) => model.api.endpoints === 'generic');
    expect(generic.length).toBeGreaterThan(8);
    for (const model of generic) {
      const base = model.api.basePath;
      expect(parameter(base, 'get', 'orderBy').schema.enum, base).toEqual(model.sortFields);
      const filters = new RegExp(parameter(base, 'get', 'filters').schema.pattern!, 'u');
      for (const field of model.filterFields) for (const operator of FILTER_OPERATORS) expect(filters.test(`${field};${operator};x`), `${base} ${field} ${operator}`).toBe(true);
      expect(filters.test(`${model.filterFields[0]};eq;a|${model.filterFields.at(-1)};in;b,c`)).toBe(true);
      for (const bad of ['nope;eq;x', `${model.filterFields[0]};regex;x`, `${model.filterFields[0]};eq`, 'password;eq;x', ';;']) expect(filters.test(bad), `${base} ${bad}`).toBe(false);
      if (!model.flags.exportable) continue;
      const exportPath = `${base}/export`;
      expect(parameter(exportPath, 'get', 'format').schema.enum).toEqual(model.export.formats);
      const headers = new RegExp(parameter(exportPath, 'get', 'headers').schema.pattern!, 'u');
      expect(headers.test(model.export.headers.join(',')), exportPath).toBe(true);
      for (const bad of ['password', 'nope', `${model.export.headers[0]},nope`, '']) expect(headers.test(bad), `${exportPath} ${bad}`).toBe(false);
      const separator = new RegExp(parameter(exportPath, 'get', 'separator').schema.pattern!, 'u');
      expect([';', ',', '\t', '|'].every((c) => separator.test(c))).toBe(true);
      expect(['""', '"', '\n', ';;', ''].some((c) => separator.test(c))).toBe(false);
      expect(parameter(exportPath, 'get', 'locale').schema.enum).toEqual(expect.arrayContaining(['en', 'es']));
    }
  });

  test('an export without format writes the documented default (JSON, or the only format an entity has)', async () => {
    for (const base of ['/api/users', '/api/bots', '/api/roles']) {
      const format = parameter(`${base}/export`, 'get', 'format').schema.default;
      const response = await server.get(`${base}/export`);
      expect(response.status, `${base}/export -> ${response.text}`).toBe(200);
      expect(response.body.url, base).toMatch(format === 'CSV' ? /\.csv/ : /\.json/);
    }
    expect(parameter('/api/users/export', 'get', 'format').schema.default).toBe('CSV');
    expect(parameter('/api/bots/export', 'get', 'format').schema.default).toBe('JSON');
  });

  test('GraphQL errors have the documented GraphQL shape, on 200 and 400 alike', async () => {
    const contract = new OpenApiContract(document as unknown as OpenApiDocument);
    const badQuery = await server.post('/graphql', { query: '{ nope }' });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.errors[0].message).toEqual(expect.any(String));
    const resolverError = await server.post('/graphql', { query: '{ botFind(orderBy: "nope") { _id } }' });
    expect(resolverError.status).toBe(200);
    expect(resolverError.body.errors[0].extensions).toMatchObject({ status: 400, message: expect.stringContaining('nope') });
    for (const response of [badQuery, resolverError]) {
      expect(contract.check({ method: 'POST', url: '/graphql', status: response.status, contentType: 'application/json', body: response.body })).toBeNull();
    }
    // The documented shape is not a blank cheque: an error without a message breaks it.
    expect(contract.check({ method: 'POST', url: '/graphql', status: 400, contentType: 'application/json', body: { errors: [{ extensions: null }] } })).toMatch(/POST \/graphql .*400/);
  });

  test('the test client fails a response the document does not allow, naming the operation, the status and the schema path', () => {
    const contract = new OpenApiContract(document as unknown as OpenApiDocument);
    expect(contract.match('GET', '/api/bots/search?search=x')!.path).toBe('/api/bots/search');
    expect(contract.match('GET', '/api/bots/abc')!.path).toBe('/api/bots/{id}');
    expect(contract.match('GET', '/api/nowhere')).toBeNull();
    const status = contract.check({ method: 'GET', url: '/api/bots/abc', status: 418, contentType: 'application/json', body: { message: 'teapot' } });
    expect(status).toMatch(/GET \/api\/bots\/\{id\} \(getApiBotsId\) answered 418, which the OpenAPI document does not list/);
    const shape = contract.check({ method: 'GET', url: '/api/bots', status: 200, contentType: 'application/json', body: { items: [{ _id: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }], total: 1 } });
    expect(shape).toMatch(/GET \/api\/bots .*answered 200 with a body that does not match its schema: \/items\/0\/_id must be string \(schema #\/components\/schemas\/Bot\/properties\/_id\/type/);
    const error = contract.check({ method: 'DELETE', url: '/api/bots/abc', status: 409, contentType: 'application/json', body: { error: 'no message' } });
    expect(error).toMatch(/DELETE \/api\/bots\/\{id\} .*409 .*must have required property 'message'/);
    expect(contract.check({ method: 'DELETE', url: '/api/bots/abc', status: 409, contentType: 'application/json', body: { message: 'in use' } })).toBeNull();
    expect(server.contract, 'every API test client checks its answers').not.toBeNull();
  });
});
