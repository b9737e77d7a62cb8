import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot } from './helpers/fixtures.ts';
import { MAX_SEARCH_CHARS } from '../../server/entities/list-query.ts';
import { GRAPHQL_MAX_FRAGMENTS } from '../../server/graphql/document-bounds.ts';

/**
 * Issue 31 item 6: input that used to reach a 500 (repeated parameters, lone surrogates, search
 * patterns SQLite cannot compile, documents deep enough to overflow the stack) answers 400 in the
 * error shape on REST and GraphQL, on both engines; unsupported methods answer 405 with Allow.
 */
let server: TestServer;
let exportRoutes: string[];
let importRoutes: string[];

beforeAll(async () => {
  server = await startTestServer();
  await create(server, '/api/bots', minimalBot('Bot de higiene'));
  const urls = new Set(server.forja.routes.map((r) => `${r.method} ${r.url}`));
  exportRoutes = [...urls].filter((u) => u.startsWith('GET ') && u.endsWith('/export')).map((u) => u.slice(4));
  importRoutes = [...urls].filter((u) => u.startsWith('POST ') && u.endsWith('/import')).map((u) => u.slice(5));
}, 60_000);
afterAll(async () => server?.close());

function expect400(res: ApiResponse, what: string, field?: string, reason?: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(400);
  expectErrorShape(res.body);
  if (field) expect(res.body.inputErrors, what).toContainEqual({ field, reason });
}

async function graphql(query: string, variables?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return server.post('/graphql', { query, ...(variables ? { variables } : {}), ...extra });
}

function expectGraphql400(res: ApiResponse, what: string, message?: RegExp) {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(400);
  expect(res.body.data ?? null, what).toBeNull();
  expect(res.body.errors?.length, what).toBeGreaterThan(0);
  expect(res.text).not.toMatch(/Maximum call stack|pattern too complex|invalid input syntax|Internal server error/);
  if (message) expect(res.body.errors[0].message, what).toMatch(message);
}

describe('a repeated query parameter is a 400 naming it', () => {
  it('?format= twice on every export route', async () => {
    expect(exportRoutes.length).toBeGreaterThan(5);
    for (const route of exportRoutes) {
      for (const query of ['format=CSV&format=JSON', 'format=JSON&format=JSON', 'format=csv&format=']) {
        expect400(await server.get(`${route}?${query}`), `${route}?${query}`, 'format', 'validation.repeatedParameter');
      }
    }
  });

  it('?format= twice on every import route (nothing imported)', async () => {
    expect(importRoutes.length).toBeGreaterThan(5);
    for (const route of importRoutes) {
      const res = await server.upload(`${route}?format=CSV&format=JSON`, { name: 'x.csv', content: 'name\nRepetido\n', type: 'text/csv' });
      expect400(res, route, 'format', 'validation.repeatedParameter');
    }
    expect((await server.get('/api/bots?search=Repetido')).body.total).toBe(0);
  });

  it('any other scalar: limit, page, order, orderBy, search, filters, dryRun, separator, state', async () => {
    for (const path of [
      '/api/bots?limit=1&limit=2',
      '/api/bots?page=1&page=1',
      '/api/bots?order=asc&order=desc',
      '/api/bots?orderBy=name&orderBy=name',
      '/api/bots/search?search=a&search=b',
      '/api/bots?filters=name;eq;x&filters=name;eq;y',
      '/api/bots/export?separator=%3B&separator=,',
      '/api/jobs?state=done&state=failed',
      '/api/bots?limit=1&order=asc&order=asc&page=2&page=3',
    ]) {
      const res = await server.get(path);
      expect400(res, path);
      expect(res.body.inputErrors.every((e: { reason: string }) => e.reason === 'validation.repeatedParameter'), path).toBe(true);
    }
  });
});

describe('lone surrogates are a 400 on both engines', () => {
  const lone = ['\ud800', 'abc\udfff', '\udc00\ud800', 'x\ud83d'];

  it('in a GraphQL list filter, a scalar filter and a search (variables)', async () => {
    for (const value of lone) {
      for (const filters of [[{ field: 'name', operator: 'in', value: [value] }], [{ field: 'name', operator: 'eq', value }], [{ field: 'name', operator: 'in', value: ['ok', value] }]]) {
        const res = await graphql('query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: filters });
        expectGraphql400(res, JSON.stringify(filters));
        expect(res.body.errors[0].extensions).toMatchObject({ status: 400, inputErrors: [expect.objectContaining({ reason: 'validation.loneSurrogate' })] });
      }
      expectGraphql400(await graphql('query($s: String!) { botSearch(search: $s) { _id } }', { s: value }), `search ${JSON.stringify(value)}`);
    }
  });

  it('in a GraphQL string literal (the document itself)', async () => {
    for (const escape of ['\\ud800', '\\udfff', 'a\\ud83d']) {
      const res = await graphql(`{ botFind(filters: [{ field: "name", operator: in, value: ["${escape}"] }]) { _id } }`);
      expect(res.status, res.text).toBe(400);
      expect(res.text).not.toMatch(/invalid input syntax|Internal server error/);
    }
  });

  it('in REST bodies (create, update) and filters', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Surrogados'));
    for (const value of lone) {
      const body = `{"name": ${JSON.stringify(value)}, "allowedOrigins": []}`;
      for (const [method, path] of [['POST', '/api/bots'], ['PUT', `/api/bots/${bot._id}`]]) {
        const res = await server.raw(path, { method, headers: { 'content-type': 'application/json' }, body });
        expect400(res, `${method} ${path} ${JSON.stringify(value)}`, 'name', 'validation.loneSurrogate');
      }
      const nested = `{"name": "ok", "questions": ["fine", ${JSON.stringify(value)}]}`;
      expect400(await server.raw('/api/bots', { method: 'POST', headers: { 'content-type': 'application/json' }, body: nested }), 'nested', 'questions.1', 'validation.loneSurrogate');
    }
    expect((await server.get(`/api/bots/${bot._id}`)).body.name).toBe('Surrogados');
  });
});

describe('search and filter values have a length limit', () => {
  it(`a search over ${MAX_SEARCH_CHARS} characters: 400 naming the limit (REST and GraphQL)`, async () => {
    // REST up to what fits in a URL (Node refuses a request head over 16 KB itself); GraphQL past SQLite's 50,000.
    for (const length of [MAX_SEARCH_CHARS + 1, 4_000, 5_000, 50_001, 60_000]) {
      const text = 'a%'.repeat(Math.ceil(length / 2)).slice(0, length);
      for (const path of length > 5_000 ? [] : ['/api/bots/search', '/api/bots', '/api/bot-traces']) {
        const res = await server.get(`${path}?search=${encodeURIComponent(text)}`);
        expect400(res, `${path} ${length}`, 'search', 'validation.tooLong');
        expect(res.body.message).toContain(String(MAX_SEARCH_CHARS));
      }
      for (const query of ['query($s: String!) { botSearch(search: $s) { _id } }', 'query($s: String) { botPaginate(search: $s) { total } }', 'query($s: String) { userFind(search: $s) { _id } }']) {
        const res = await graphql(query, { s: text });
        expect(res.body.errors?.[0]?.extensions, res.text.slice(0, 300)).toMatchObject({ status: 400, inputErrors: [{ field: 'search', reason: 'validation.tooLong' }] });
        expect(res.text).not.toMatch(/pattern too complex|Internal server error/);
      }
    }
    // At the limit it is an ordinary search.
    expect((await server.get(`/api/bots/search?search=${'b'.repeat(MAX_SEARCH_CHARS)}`)).status).toBe(200);
  });

  it('a like filter over the limit, and an in list over 1,000 values: 400', async () => {
    const long = 'x'.repeat(50_001);
    expect400(await server.get(`/api/bots?filters=${encodeURIComponent(`name;like;${long.slice(0, 10_000)}`)}`), 'REST like');
    const many = Array.from({ length: 40_000 }, (_, i) => `v${i}`);
    expect400(await server.get(`/api/bots?filters=${encodeURIComponent(`name;in;${many.slice(0, 1_001).join(',')}`)}`), 'REST in');
    const res = await graphql('query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: [{ field: 'name', operator: 'in', value: many }] });
    expect(res.body.errors?.[0]?.extensions?.status, res.text.slice(0, 300)).toBe(400);
    const like = await graphql('query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: [{ field: 'name', operator: 'like', value: long }] });
    expect(like.body.errors?.[0]?.extensions?.status, like.text.slice(0, 300)).toBe(400);
  });
});

describe('GraphQL documents too deep for the stack are refused before they are read', () => {
  it('2,000 chained fragments, and just over the fragment limit', async () => {
    for (const count of [2_000, GRAPHQL_MAX_FRAGMENTS + 1, 10_000]) {
      const fragments = Array.from({ length: count }, (_, i) => `fragment F${i} on Bot { ${i + 1 < count ? `...F${i + 1}` : '_id'} }`).join('\n');
      expectGraphql400(await graphql(`{ botFind(limit: 1) { ...F0 } }\n${fragments}`), `${count} fragments`, /fragments|characters/);
    }
  });

  it('deep selection sets, inline fragments, list values and objects', async () => {
    const deep = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
    for (const [what, query] of [
      ['inline fragments', `{ ${'... on Query { '.repeat(2_000)} __typename ${'}'.repeat(2_000)} }`],
      ['lists', `{ botFind(filters: [{ field: "name", operator: in, value: ${deep('[', ']', 5_000)} }]) { _id } }`],
      ['objects', `{ botFind(filters: [{ field: "name", operator: in, value: ${'{ a: '.repeat(3_000)}1${' }'.repeat(3_000)} }]) { _id } }`],
      ['selections', `{ botFind { ${'knowledge { '.repeat(3_000)}_id${' }'.repeat(3_000)} } }`],
    ]) {
      expectGraphql400(await graphql(query), what);
    }
  });

  it('fragments named in strings and comments do not count; an ordinary document passes', async () => {
    const res = await graphql(`# fragment fragment fragment\nquery { botFind(limit: 1, search: "fragment ${'fragment '.repeat(100)}") { ...B } }\nfragment B on Bot { _id name }`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.botFind).toEqual([]);
  });
});

describe('GraphQL over HTTP', () => {
  it('"extensions": null is accepted like no extensions (single and with variables)', async () => {
    for (const extra of [{ extensions: null }, { extensions: null, operationName: null }, { extensions: {} }]) {
      const res = await graphql('{ botFind(limit: 1) { _id } }', undefined, extra);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.botFind).toHaveLength(1);
    }
    const res = await graphql('query($n: Int) { botFind(limit: $n) { _id } }', { n: 1 }, { extensions: null });
    expect(res.status, res.text).toBe(200);
  });
});

describe('unsupported methods on known paths: 405 with Allow', () => {
  const cases: Array<[string, string, string[]]> = [
    ['DELETE', '/api/bots', ['GET', 'POST']],
    ['PATCH', '/api/bots', ['GET', 'POST']],
    ['POST', '/api/bots/00000000-0000-4000-8000-000000000000', ['DELETE', 'GET', 'PUT']],
    ['PUT', '/api/health', ['GET', 'HEAD']],
    ['GET', '/api/auth/login', ['POST']],
    ['DELETE', '/api/google/logout', ['POST']],
    ['PUT', '/graphql', ['GET', 'POST']],
    ['POST', '/api/bots/export', ['GET']],
    ['GET', '/api/file/avatars', ['POST']],
  ];

  it.each(cases)('%s %s', async (method, path, allowed) => {
    for (const client of [server, server.as(null)]) {
      const res = await client.raw(path, { method, ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{"x": 1}' }) });
      expect(res.status, res.text).toBe(405);
      expectErrorShape(res.body);
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      for (const m of allowed) expect(allow, path).toContain(m);
      expect(allow).not.toContain(method);
    }
  });

  it('unknown paths stay 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PUT']) {
      for (const path of ['/api/no-such-thing', '/api/bots/x/y/z', '/nothing-here.txt']) {
        const res = await server.raw(path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('the 405 answers are not operations: no route of theirs is listed', async () => {
    expect(server.forja.routes.some((r) => r.method === 'DELETE' && r.url === '/api/health')).toBe(false);
  });
});
