import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../server/generated/entities.ts';
import { schemas } from '../../server/generated/schemas.ts';
import { startTestServer, type ApiResponse, type Credentials, type TestServer } from '../api/helpers/test-server.ts';
import { userWith } from '../api/helpers/fixtures.ts';
import {
  BAD_IDS, INJECTION_STRINGS, INVALID_JSON_BODIES, WRONG_CONTENT_TYPES, deepJson, hugeArray, hugeString, tamperedTokens, wrongTypeValue,
} from './helpers/bad-values.ts';
import { openSnapshotReader, snapshotDiff, type DbSnapshot, type SnapshotReader } from './helpers/db-snapshot.ts';
import { createRng, fuzzSeed, type Rng } from '../helpers/prng.ts';
import { sampleFromSchema } from './helpers/sample-from-schema.ts';

/**
 * Bad input against every route: generated from the entity models/schemas and the OpenAPI
 * document. Every answer must be < 500, 4xx JSON answers must have the error shape, the server
 * must still answer /api/health, and a request that was rejected must not change the database
 * (row counts + content hash of every table, read-only through better-sqlite3).
 */
const SEED = fuzzSeed();
// 55 s: the database check skips hashing while PRAGMA data_version stands still (db-snapshot.ts),
// which tries as many cases in 55 s as the full hash after every case did in 75 (+35 % cases/s).
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 55);
const MAX_UPLOAD = 64 * 1024;

type Route = { method: string; url: string; access: string };
type Case = { kind: string; method: string; path: string; init: RequestInit; credentials: Credentials | 'default'; graphql?: boolean };

let server: TestServer;
let reader: SnapshotReader;
let routes: Route[] = [];
let openapi: any;
let viewer: Credentials;
const realIds: Record<string, string[]> = {};
const bodySchemaByRoute = new Map<string, any>();
let graphqlFields: { query: string[]; mutation: string[] } = { query: [], mutation: [] };

const basePathEntity = new Map(Object.values(entities).map((model) => [model.api.basePath, model.name]));
// Records whose update could lock the suite out (the admin, its role, keys, tenants) get only bogus ids.
const PROTECTED_ENTITIES = new Set(['user', 'role', 'userApiKey', 'tenant', 'setting']);

beforeAll(async () => {
  // The document's contract has its own test (openapi-contract.test.ts); here every answer is looked at, breach or not.
  server = await startTestServer({ maxUploadBytes: MAX_UPLOAD, validateResponses: false });
  reader = openSnapshotReader(server.dataDir);
  routes = server.forja.routes
    .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS' && !route.url.startsWith('/api/docs') && route.url !== '*' && route.url !== '/')
    .map(({ method, url, access }) => ({ method, url, access }));
  openapi = (await server.get('/api/docs/json')).body;
  for (const [p, ops] of Object.entries<any>(openapi.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      if (schema) bodySchemaByRoute.set(`${method.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`, schema);
    }
  }
  for (const model of Object.values(entities)) {
    if (PROTECTED_ENTITIES.has(model.name)) continue;
    const list = await server.get(`${model.api.basePath}?limit=5`);
    const items = Array.isArray(list.body) ? list.body : (list.body?.items ?? list.body?.data ?? []);
    realIds[model.name] = items.map((item: any) => item._id ?? item.id).filter(Boolean);
  }
  const viewerUser = await userWith(server, ['bot:view']);
  viewer = { token: viewerUser.token };
  const introspection = await server.post('/graphql', { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' });
  graphqlFields = {
    query: (introspection.body?.data?.__schema?.queryType?.fields ?? []).map((f: any) => f.name),
    mutation: (introspection.body?.data?.__schema?.mutationType?.fields ?? []).map((f: any) => f.name),
  };
}, 120_000);

afterAll(async () => {
  reader?.close();
  await server?.close();
});

function entityOf(url: string): string | undefined {
  for (const [base, name] of basePathEntity) if (url === base || url.startsWith(base + '/')) return name;
  return undefined;
}

function fillPath(rng: Rng, url: string, bogus: boolean): string {
  const entity = entityOf(url);
  return url
    .replace(/:(\w+)/g, (_m, name: string) => {
      const ids = entity ? realIds[entity] ?? [] : [];
      if (!bogus && ids.length && name === 'id') return ids[rng.int(ids.length)]!;
      if (name === 'dir') return rng.pick(['files', 'avatars', '..', '..%2F..', 'a/b', 'x'.repeat(300)]);
      return encodeURIComponent(rng.pick(BAD_IDS)).replace(/%25/g, rng.chance(0.5) ? '%' : '%25');
    })
    .replace('*', () => rng.pick(['../forja.db', '..%2Fforja.db', '%2e%2e/%2e%2e/etc/passwd', 'forja.db', 'files/../forja.db', 'jwt-secret', '.', '']));
}

function bodySchema(route: Route): any {
  const entity = entityOf(route.url);
  if (entity && route.url === entities[entity]!.api.basePath && route.method === 'POST') return schemas[entity]!.create;
  if (entity && route.url === `${entities[entity]!.api.basePath}/:id` && route.method === 'PUT') return schemas[entity]!.update;
  return bodySchemaByRoute.get(`${route.method} ${route.url}`);
}

/** One mutation of a plausible body: the heart of the fuzzer. */
function mutateBody(rng: Rng, schema: any): { kind: string; body: unknown } {
  const sample = (sampleFromSchema(schema, rng) ?? {}) as Record<string, unknown>;
  const props = Object.entries<any>(schema?.properties ?? {});
  const stringProps = props.filter(([, p]) => [p.type].flat().includes('string'));
  const arrayProps = props.filter(([, p]) => [p.type].flat().includes('array'));
  const kind = rng.pick(['wrongType', 'missing', 'extra', 'injection', 'hugeString', 'hugeArray', 'nulls', 'proto', 'notObject', 'wrongTypeAll']);
  switch (kind) {
    case 'wrongType': {
      if (!props.length) return { kind, body: { x: wrongTypeValue(rng, 'object') } };
      const [name, prop] = rng.pick(props);
      return { kind: `wrongType:${name}`, body: { ...sample, [name]: wrongTypeValue(rng, prop.type) } };
    }
    case 'wrongTypeAll':
      return { kind, body: Object.fromEntries(props.map(([name, prop]) => [name, wrongTypeValue(rng, prop.type)])) };
    case 'missing': {
      const copy = { ...sample };
      for (const name of schema?.required ?? []) if (rng.chance(0.7)) delete copy[name];
      return { kind, body: rng.chance(0.3) ? {} : copy };
    }
    case 'extra':
      return { kind, body: { ...sample, _id: 'forged', createdAt: 'yesterday', tenant: 'other-tenant', owner: 'someone', role: 'admin', isAdmin: true, [`extra${rng.int(100)}`]: rng.pick(INJECTION_STRINGS) } };
    case 'injection': {
      const copy = { ...sample };
      for (const [name] of stringProps) copy[name] = rng.pick(INJECTION_STRINGS);
      return { kind, body: copy };
    }
    case 'hugeString': {
      const target = stringProps.length ? rng.pick(stringProps)[0] : 'name';
      return { kind: `hugeString:${target}`, body: { ...sample, [target]: hugeString() } };
    }
    case 'hugeArray': {
      const target = arrayProps.length ? rng.pick(arrayProps)[0] : rng.pick(props.length ? props : [['items', {}] as [string, any]])[0];
      return { kind: `hugeArray:${target}`, body: { ...sample, [target]: hugeArray() } };
    }
    case 'nulls':
      return { kind, body: Object.fromEntries(props.map(([name]) => [name, null])) };
    case 'proto':
      // JSON.parse keeps "__proto__" as an own key, so it is sent as written.
      return { kind, body: { ...sample, ...JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') } };
    default:
      return { kind, body: rng.pick([[sample], 'string', 42, null, true]) };
  }
}

const json = (body: unknown): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function nextCase(rng: Rng, tokens: Record<string, string>): Case {
  const route = rng.pick(routes);
  const credentials: Credentials | 'default' = rng.chance(0.8) ? 'default' : rng.pick([null, viewer]);
  const writes = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const roll = rng.next();
  const base = { method: route.method, credentials };
  if (roll < 0.08) {
    const name = rng.pick(Object.keys(tokens));
    return { ...base, kind: `jwt:${name}`, path: fillPath(rng, route.url, rng.chance(0.5)), init: writes ? json({}) : {}, credentials: { token: tokens[name]! } };
  }
  if (roll < 0.18) {
    // Hostile paths: traversal and injection in every path parameter.
    return { ...base, kind: 'pathParam', path: fillPath(rng, route.url, true), init: writes ? json(sampleFromSchema(bodySchema(route), rng) ?? {}) : {} };
  }
  if (roll < 0.3 && writes) {
    const choice = rng.int(4);
    const path = fillPath(rng, route.url, false);
    if (choice === 0) return { ...base, kind: 'invalidJson', path, init: { headers: { 'content-type': 'application/json' }, body: rng.pick(INVALID_JSON_BODIES) as BodyInit } };
    if (choice === 1) return { ...base, kind: 'deepJson', path, init: { headers: { 'content-type': 'application/json' }, body: deepJson(10_000, rng.chance(0.5) ? 'array' : 'object') } };
    if (choice === 2) {
      const type = rng.pick(WRONG_CONTENT_TYPES);
      return { ...base, kind: `contentType:${type}`, path, init: { headers: type ? { 'content-type': type } : {}, body: type ? JSON.stringify(sampleFromSchema(bodySchema(route), rng) ?? {}) : 'x=1' } };
    }
    return { ...base, kind: 'emptyBody', path, init: { headers: { 'content-type': 'application/json' }, body: '' } };
  }
  if (writes) {
    const { kind, body } = mutateBody(rng, bodySchema(route));
    return { ...base, kind: `body:${kind}`, path: fillPath(rng, route.url, rng.chance(0.3)), init: json(body) };
  }
  // Reads: malformed list queries.
  const params = new URLSearchParams();
  const filterField = rng.pick(['name', 'createdAt', 'tenant', 'x', '', "name'--", '__proto__']);
  const garbage = [
    () => params.set('filters', rng.pick([`${filterField};eq;${rng.pick(INJECTION_STRINGS)}`, `${filterField};regex;.*`, ';;', '|||', `${filterField};in;`, `createdAt;gt;not-a-date`, `${filterField};eq`, 'a'.repeat(10_000), `name;eq;x|`.repeat(500)])),
    () => params.set('orderBy', rng.pick(['password', 'name; DROP TABLE bot', '__proto__', '1', '', 'name desc', 'x'.repeat(3000)])),
    () => params.set('order', rng.pick(['up', 'ASC; --', '', '1'])),
    () => params.set('limit', rng.pick(['-1', '0', '1e9', 'abc', '99999999999999999999', '10.5', 'NaN', ' '])),
    () => params.set('page', rng.pick(['-1', '0', '1e309', 'abc', '9007199254740993'])),
    () => params.set('search', rng.pick([...INJECTION_STRINGS, hugeString(100_000), '"', '*', 'NEAR(', 'a OR', '"unterminated', '^', 'x:y'])),
    () => params.set('ids', rng.pick(BAD_IDS)),
    () => params.set('format', rng.pick(['EXE', '../x', 'csv', ''])),
  ];
  for (let i = 0; i < 1 + rng.int(3); i++) rng.pick(garbage)();
  if (rng.chance(0.05)) params.append('filters', 'second;eq;x');
  return { ...base, kind: 'query', path: `${fillPath(rng, route.url, rng.chance(0.5))}?${params}`, init: {} };
}

function graphqlCase(rng: Rng): Case {
  const field = rng.pick(graphqlFields.query.length ? graphqlFields.query : ['bots']);
  const mutation = rng.pick(graphqlFields.mutation.length ? graphqlFields.mutation : ['createBot']);
  const queries: (() => { query: unknown; variables?: unknown })[] = [
    () => ({ query: '{ ' + 'x'.repeat(rng.int(50)) }),
    () => ({ query: `{ ${Array.from({ length: 6000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }),
    () => ({ query: `{ ${field} ${'{ __typename '.repeat(50)}${'}'.repeat(50)} }` }),
    () => ({ query: `query($id: ID!) { ${field}(id: $id) { __typename } }`, variables: { id: wrongTypeValue(rng, 'string') } }),
    () => ({ query: `mutation($input: JSON) { ${mutation}(input: $input) { __typename } }`, variables: { input: wrongTypeValue(rng, 'object') } }),
    () => ({ query: `mutation { ${mutation}(data: ${JSON.stringify(rng.pick(INJECTION_STRINGS))}) { __typename } }` }),
    () => ({ query: 42 }),
    () => ({ query: null, variables: 'nope' }),
    () => ({ query: `{ ${field}(filters: ${JSON.stringify(rng.pick(INJECTION_STRINGS))}, limit: -5) { __typename } }` }),
    () => ({ query: `query Q { __typename } query Q { __typename }` }),
    () => ({ query: `fragment F on Query { ...F } { ...F }` }),
    () => ({ query: '{ __typename }', operationName: 'Missing' }),
    () => ({ query: `{ ${'__typename '.repeat(1)} }`, variables: JSON.parse(deepJson(2000, 'object')) }),
    () => ({ query: hugeString(1024 * 1024) }),
  ];
  return { kind: 'graphql', method: 'POST', path: '/graphql', init: json(rng.pick(queries)()), credentials: rng.chance(0.8) ? 'default' : null, graphql: true };
}

function uploadCase(rng: Rng): Case {
  const form = new FormData();
  const name = rng.pick(['../../forja.db', '..\\..\\x.txt', '/etc/passwd', 'a'.repeat(1000) + '.txt', 'x\u0000.png', '<img src=x onerror=alert(1)>.svg', '.htaccess', 'normal.txt', '']);
  const size = rng.pick([0, 10, MAX_UPLOAD + 1, MAX_UPLOAD * 4]);
  const field = rng.chance(0.85) ? 'file' : rng.pick(['other', '']);
  form.append(field, new Blob([new Uint8Array(size)], { type: rng.pick(['text/plain', 'image/png', 'application/x-msdownload', 'text/html']) }), name);
  const dir = rng.pick(['', '/files', '/..', '/..%2F..', '/avatars', '/%2e%2e', '/a.b', '/x%00']);
  return { kind: 'upload', method: 'POST', path: `/api/file${dir}`, init: { body: form }, credentials: rng.chance(0.8) ? 'default' : null };
}

describe(`API fuzz (seed ${SEED}, ${SECONDS}s)`, () => {
  it('bad input never yields a 5xx, a crash, a shapeless error or a change to stored data', async () => {
    const rng = createRng(SEED);
    console.log(`[fuzz] seed=${SEED} (FUZZ_SEED to replay) time bound=${SECONDS}s routes=${routes.length} openapi paths=${Object.keys(openapi.paths ?? {}).length}`);
    const adminUser = (await server.get('/api/users/me')).body;
    const tokens = tamperedTokens(server.jwtSecret, adminUser?._id ?? 'admin', server.admin.token);
    const failures: string[] = [];
    const slow: string[] = [];
    const recent: string[] = [];
    const statuses: Record<string, number> = {};
    let tried = 0;
    let clientErrors = 0;
    let rejectedChecked = 0;
    let baseline: DbSnapshot = reader.snapshot();
    const deadline = Date.now() + SECONDS * 1000;
    const fail = (c: Case, response: ApiResponse | null, why: string) => {
      if (failures.length < 200) failures.push(`${why} | ${c.kind} ${c.method} ${c.path.slice(0, 160)} -> ${response?.status ?? '-'} ${response?.text.slice(0, 200) ?? ''}`);
    };
    while (Date.now() < deadline) {
      const roll = rng.next();
      const c = roll < 0.06 ? graphqlCase(rng) : roll < 0.1 ? uploadCase(rng) : nextCase(rng, tokens);
      tried += 1;
      const client = c.credentials === 'default' ? server : server.as(c.credentials);
      let response: ApiResponse;
      const started = Date.now();
      try {
        response = await client.raw(c.path, { ...c.init, method: c.method });
      } catch (error) {
        // fetch refused to send it (e.g. a header value it cannot encode), or the server reset the connection.
        const message = (error as Error).message;
        // The test server's own contract checks (an error body without the request id): a fault of the server, not of fetch.
        if (message.startsWith('[test-server]')) {
          fail(c, null, message);
          continue;
        }
        slow.push(`before it: ${recent.join(' || ')}`);
        slow.push(`${Date.now() - started}ms not answered (${message}; ${String((error as any).cause?.code ?? (error as any).cause?.message ?? '')}) ${c.kind} ${c.method} ${c.path.slice(0, 120)}`);
        if (/fetch failed|other side closed|ECONNRESET|socket/i.test(message + String((error as any).cause?.code ?? ''))) {
          const health = await server.as(null).get('/api/health').catch(() => null);
          if (!health || health.status !== 200) fail(c, null, `server stopped answering: ${message}`);
        }
        clientErrors += 1;
        continue;
      }
      const took = Date.now() - started;
      recent.push(`${took}ms ${c.kind} ${c.method} ${c.path.slice(0, 120)} ${String(c.init.body ?? '').slice(0, 120)} -> ${response.status}`);
      if (recent.length > 4) recent.shift();
      if (took > 2000) slow.push(`${took}ms ${c.kind} ${c.method} ${c.path.slice(0, 120)} -> ${response.status}; before it: ${recent.slice(0, -1).join(' || ')}`);
      if (c.path.startsWith('/graphql')) c.graphql = true;
      const bucket = `${Math.floor(response.status / 100)}xx`;
      statuses[bucket] = (statuses[bucket] ?? 0) + 1;
      // 501 is the deliberate "Google sign-in is not configured" answer (identity-accounts.test.ts), not a fault.
      if (response.status >= 500 && !(response.status === 501 && (response.body as any)?.i18nMessage === 'error.googleNotConfigured')) fail(c, response, '5xx');
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      if (response.status >= 400 && response.status < 500 && isJson && !c.graphql) {
        const body = response.body as any;
        const ok =
          body && typeof body === 'object' && typeof body.message === 'string' &&
          (body.i18nMessage === undefined || typeof body.i18nMessage === 'string') &&
          (body.inputErrors === undefined || (Array.isArray(body.inputErrors) && body.inputErrors.every((e: any) => typeof e?.field === 'string' && typeof e?.reason === 'string')));
        if (!ok) fail(c, response, 'error shape');
      }
      if (c.graphql && isJson) {
        const body = response.body as any;
        if (body?.errors && !(Array.isArray(body.errors) && body.errors.every((e: any) => typeof e?.message === 'string'))) fail(c, response, 'graphql error shape');
      }
      const after = reader.snapshot();
      const rejected = response.status >= 400 || (c.graphql && Array.isArray((response.body as any)?.errors) && (response.body as any)?.data == null);
      if (rejected) {
        rejectedChecked += 1;
        const changed = snapshotDiff(baseline, after);
        if (changed.length) fail(c, response, `rejected request changed tables ${changed.join(', ')}`);
      }
      baseline = after;
      if (tried % 250 === 0) {
        const health = await server.as(null).get('/api/health');
        if (health.status !== 200) fail(c, health, 'health check failed');
        // The reader skips hashing while PRAGMA data_version stands still; a full hash must agree.
        const unnoticed = reader.unnoticedChanges();
        if (unnoticed.length) fail(c, null, `tables ${unnoticed.join(', ')} changed without PRAGMA data_version moving: the snapshot shortcut is unsound`);
      }
    }
    const health = await server.as(null).get('/api/health');
    console.log(`[fuzz] cases tried=${tried} statuses=${JSON.stringify(statuses)} rejected+db-checked=${rejectedChecked} not-sent/reset=${clientErrors} failures=${failures.length}`);
    if (slow.length) console.log(`[fuzz] slow cases (>2s):\n${slow.join('\n')}`);
    if (failures.length) console.log(`[fuzz] failures:\n${[...new Set(failures)].slice(0, 60).join('\n')}`);
    // No answer to any of them held a password hash or a server secret.
    const leaks = server.bodies.filter((body) => body.includes('$argon2') || body.includes(server.jwtSecret)).map((body) => body.slice(0, 200));
    expect(leaks).toEqual([]);
    expect(health.status).toBe(200);
    expect(tried).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, (SECONDS + 120) * 1000);
});
