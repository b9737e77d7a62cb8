import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { entities } from '../../server/generated/entities.ts';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import { startTestServer, type TestServer } from '../api/helpers/test-server.ts';
import { contractFor, type OpenApiContract, type OpenApiOperation } from '../api/helpers/openapi-contract.ts';
import type { TestBackend } from '../api/helpers/test-database.ts';
import { BAD_IDS, INJECTION_STRINGS, wrongTypeValue } from './helpers/bad-values.ts';
import { createRng, fuzzSeed, type Rng } from '../helpers/prng.ts';
import { sampleFromSchema } from './helpers/sample-from-schema.ts';

/**
 * The OpenAPI document as a contract, tested as Schemathesis does: requests for EVERY documented
 * operation, generated from the document (valid and invalid path, query and body values), sent as
 * the administrator and anonymously, on SQLite and (when DATABASE_URL_TEST is set) PostgreSQL.
 * Every answer must be a status the operation documents with a body matching its schema, never a
 * 5xx the document does not promise; and a value the document's own constraints refuse (filters,
 * orderBy, formats, headers, limits) must be refused by the server (400), so the document says what
 * the server enforces. Seeded (FUZZ_SEED replays), bounded by CONTRACT_SECONDS per engine.
 */
const SEED = fuzzSeed();
const SECONDS = Number(process.env.CONTRACT_SECONDS ?? 40);
const REQUEST_TIMEOUT_MS = 15_000;
const BACKENDS: TestBackend[] = ['sqlite', ...(process.env.DATABASE_URL_TEST?.trim() ? (['postgres'] as const) : [])];
// Records whose change could lock the run out (the admin, its role, keys, tenants, settings) get only bogus ids.
const PROTECTED_ENTITIES = new Set(['user', 'role', 'userApiKey', 'tenant', 'setting']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

type Identity = 'admin' | 'anonymous';
interface Operation { method: string; path: string; operation: OpenApiOperation; model: EntityModel | null }
interface Case { op: Operation; identity: Identity; url: string; init: RequestInit; kind: string; mustRefuse: string | null }

const modelsByBase = Object.values(entities).filter((model) => model.api.endpoints === 'generic').sort((a, b) => b.api.basePath.length - a.api.basePath.length);
const modelOf = (path: string) => modelsByBase.find((model) => path === model.api.basePath || path.startsWith(`${model.api.basePath}/`)) ?? null;

/** Values a documented query parameter may take (from its schema) and values its schema refuses. */
function queryValue(rng: Rng, name: string, schema: Record<string, any>, model: EntityModel | null, valid: boolean): string {
  if (valid) {
    if (name === 'filters' && model) {
      if (!model.filterFields.length || rng.chance(0.2)) return '';
      const field = rng.pick(model.filterFields);
      return `${field};${rng.pick(['eq', 'ne', 'like', 'in'])};${rng.pick(['a', '1', 'true', '2024-01-01', 'x,y'])}`;
    }
    if (name === 'headers' && model) return model.export.headers.slice(0, 1 + rng.int(model.export.headers.length)).join(',');
    if (name === 'separator') return rng.pick([';', ',', '\t', '|']);
    if (Array.isArray(schema.enum) && schema.enum.length) return String(rng.pick(schema.enum));
    if (schema.type === 'integer') return String(Math.max(schema.minimum ?? 0, 1) + rng.int(3));
    if (schema.type === 'boolean') return String(rng.chance(0.5));
    return rng.pick(['a', 'fuzz', '1', 'é', '']);
  }
  // Invalid: what the documented schema refuses (checked against it below before a 400 is required).
  switch (name) {
    case 'filters': return rng.pick(['nope;eq;x', 'name;regex;x', ';;', 'name;eq', 'password;eq;x', `${model?.filterFields[0] ?? '_id'};between;1`]);
    case 'orderBy': return rng.pick(['password', 'nope', 'name; DROP TABLE x', '__proto__']);
    case 'order': return rng.pick(['up', 'sideways', '1']);
    case 'format': return rng.pick(['XML', 'EXE', '../x']);
    case 'headers': return rng.pick(['password', 'nope', 'name,nope', '__proto__']);
    case 'separator': return rng.pick(['""', ';;', '\n', 'ab']);
    case 'limit': return rng.pick(['-1', 'abc', '10.5', '99999999']);
    case 'page': return rng.pick(['0', '-1', 'abc']);
    case 'dryRun': return rng.pick(['maybe', 'yes']);
    case 'locale': return rng.pick(['xx', 'klingon']);
    default: return rng.pick([...INJECTION_STRINGS.slice(0, 6), 'x'.repeat(3000)]);
  }
}

/** `#/components/...` references inlined (bounded), so samples see the real properties. */
function deref(document: any, schema: any, depth = 0): any {
  if (!schema || typeof schema !== 'object' || depth > 6) return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    const target = schema.$ref.slice(2).split('/').reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    return deref(document, target, depth + 1);
  }
  if (Array.isArray(schema)) return schema.map((item) => deref(document, item, depth + 1));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, deref(document, value, depth + 1)]));
}

function jsonBody(rng: Rng, schema: any, valid: boolean): { kind: string; body: unknown } {
  const sample = (sampleFromSchema(schema, rng) ?? {}) as Record<string, unknown>;
  if (valid) return { kind: 'validBody', body: sample };
  const props = Object.entries<any>(schema?.properties ?? {});
  const kind = rng.pick(['wrongType', 'missing', 'extra', 'notObject', 'injection']);
  switch (kind) {
    case 'wrongType': {
      if (!props.length) return { kind, body: { x: wrongTypeValue(rng, 'object') } };
      const [name, prop] = rng.pick(props);
      return { kind: `wrongType:${name}`, body: { ...sample, [name]: wrongTypeValue(rng, prop.type) } };
    }
    case 'missing': return { kind, body: {} };
    case 'extra': return { kind, body: { ...sample, [`unknown${rng.int(100)}`]: 1, _id: 'forged' } };
    case 'notObject': return { kind, body: rng.pick([[sample], 'text', 42, null, true]) };
    default: return { kind, body: Object.fromEntries(props.map(([name]) => [name, rng.pick(INJECTION_STRINGS)])) };
  }
}

function multipartBody(rng: Rng, op: Operation, valid: boolean): FormData {
  const form = new FormData();
  const json = op.path.endsWith('/import') && rng.chance(0.5);
  const content = valid
    ? (json ? '[{"name":"fuzz"}]' : 'name\r\nfuzz\r\n')
    : rng.pick(['\u0000\u0001binary', '{"unterminated', 'a;b;c\r\n"x', '']);
  const name = valid ? (json ? 'rows.json' : 'rows.csv') : rng.pick(['../../x.csv', 'x.exe', '', 'a'.repeat(300)]);
  form.append(valid || rng.chance(0.7) ? 'file' : 'other', new Blob([content], { type: json ? 'application/json' : 'text/csv' }), name);
  return form;
}

describe.each(BACKENDS)(`OpenAPI contract over every operation (seed ${SEED}, ${SECONDS}s) on %s`, (backend) => {
  let server: TestServer;
  let contract: OpenApiContract;
  let document: any;
  const operations: Operation[] = [];
  const realIds = new Map<string, string[]>();
  const paramAjv = new Ajv2020({ strict: false });
  const paramChecks = new Map<string, (value: unknown) => boolean>();

  beforeAll(async () => {
    // The contract is checked here, case by case, so one breach does not hide the others.
    server = await startTestServer({ backend, validateResponses: false, maxUploadBytes: 64 * 1024 });
    const text = await (await fetch(`${server.baseUrl}/api/docs/json`)).text();
    contract = contractFor(text);
    document = contract.document;
    for (const [path, byMethod] of Object.entries(document.paths as Record<string, Record<string, OpenApiOperation>>)) {
      // The interactive documentation's own assets are not API operations.
      if (path.startsWith('/api/docs')) continue;
      for (const [method, operation] of Object.entries(byMethod)) {
        if (METHODS.includes(method)) operations.push({ method: method.toUpperCase(), path, operation, model: modelOf(path) });
      }
    }
    for (const model of modelsByBase) {
      if (PROTECTED_ENTITIES.has(model.name)) continue;
      const list = await server.get(`${model.api.basePath}?limit=5`);
      realIds.set(model.api.basePath, (list.body?.items ?? []).map((item: { _id: string }) => item._id));
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close({ expectCut: true });
  });

  /** True when the documented schema of this query parameter accepts the value. */
  function documentAccepts(op: Operation, name: string, schema: object, value: string): boolean {
    const key = `${op.method} ${op.path} ${name}`;
    let check = paramChecks.get(key);
    if (!check) {
      const validate = paramAjv.compile({ ...(schema as object), default: undefined });
      // Query values arrive as text: integers and booleans are checked as the numbers they spell.
      check = (raw) => {
        const text = String(raw);
        const type = (schema as { type?: string }).type;
        if (type === 'integer') return /^-?\d+$/.test(text) && validate(Number(text));
        if (type === 'boolean') return (text === 'true' || text === 'false') && validate(text === 'true');
        return validate(text);
      };
      paramChecks.set(key, check);
    }
    return check(value);
  }

  function buildCase(rng: Rng, op: Operation, identity: Identity, valid: boolean): Case {
    const ids = realIds.get(op.model?.api.basePath ?? '') ?? [];
    const url = op.path
      .replace(/\{(\w+)\}/g, (_m, name: string) => {
        if (valid && ids.length && (name === 'id' || name === 'ids' || name === 'conversationId')) return ids[rng.int(ids.length)]!;
        if (name === 'dir') return valid ? 'files' : rng.pick(['..', '%2e%2e', 'outbox', 'x'.repeat(300)]);
        return encodeURIComponent(valid ? `fuzz${rng.int(1000)}` : rng.pick(BAD_IDS));
      })
      .replace('*', valid ? rng.pick(['avatars/none.png', 'files/x.txt']) : rng.pick(['../forja.db', '%2e%2e/%2e%2e/etc/passwd', '']));
    const params = new URLSearchParams();
    let mustRefuse: string | null = null;
    const queryParams = (op.operation.parameters ?? []).filter((p) => p.in === 'query');
    // Invalid cases spoil one parameter; the others keep valid values.
    const spoiled = !valid && queryParams.length && rng.chance(0.6) ? rng.pick(queryParams).name : null;
    for (const param of queryParams) {
      const schema = (param.schema ?? {}) as Record<string, any>;
      if (param.name !== spoiled && !param.required && rng.chance(0.5)) continue;
      const value = queryValue(rng, param.name, schema, op.model, param.name !== spoiled);
      params.set(param.name, value);
      // An import's separator is read only for CSV files, so a JSON import may ignore a bad one.
      const alwaysRead = !(param.name === 'separator' && op.path.endsWith('/import'));
      if (param.name === spoiled && alwaysRead && !documentAccepts(op, param.name, schema, value)) mustRefuse = `${param.name}=${JSON.stringify(value)}`;
    }
    const query = params.size ? `?${params}` : '';
    const content = op.operation.requestBody?.content ?? {};
    let init: RequestInit = {};
    let kind = valid ? 'valid' : spoiled ? `invalid query ${spoiled}` : 'invalid';
    if (content['multipart/form-data']) {
      init = { body: multipartBody(rng, op, valid || spoiled !== null) };
    } else if (op.method !== 'GET' && op.method !== 'DELETE') {
      const schema = deref(document, content['application/json']?.schema ?? { type: 'object', properties: { name: { type: 'string' }, text: { type: 'string' } } });
      const body = jsonBody(rng, schema, valid || spoiled !== null);
      kind += ` ${body.kind}`;
      init = { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body.body) };
    }
    // GraphQL is one operation with many requests: a valid one is a small query.
    if (op.path === '/graphql') {
      const query = valid ? rng.pick(['{ __typename }', '{ botFind(limit: 1) { _id name } }', '{ botFind(orderBy: "nope") { _id } }']) : rng.pick(['{', '{ nope }', 'query { botFind(limit: -1) { _id } }', 'mutation { nope }']);
      if (op.method === 'GET') return { op, identity, url: `/graphql?${new URLSearchParams({ query })}`, init: {}, kind, mustRefuse: null };
      init = { headers: { 'content-type': 'application/json' }, body: JSON.stringify(rng.chance(0.9) ? { query } : { query: 42 }) };
    }
    return { op, identity, url: url + query, init: { ...init, method: op.method }, kind, mustRefuse };
  }

  it('every answer is documented, has its documented shape, and no 5xx appears', async () => {
    const rng = createRng(SEED);
    const failures: string[] = [];
    const statuses: Record<string, number> = {};
    const covered = { admin: new Set<string>(), anonymous: new Set<string>() };
    let sent = 0;
    let refusalsChecked = 0;
    let adminToken = server.admin.token;

    const send = async (c: Case) => {
      const headers = new Headers(c.init.headers);
      if (c.identity === 'admin') headers.set('authorization', `Bearer ${adminToken}`);
      const started = Date.now();
      let response: Response;
      try {
        response = await fetch(server.baseUrl + c.url, { ...c.init, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        failures.push(`${c.op.method} ${c.op.path} [${c.identity}, ${c.kind}] ${c.url.slice(0, 160)}: no answer (${(error as Error).message}) after ${Date.now() - started} ms`);
        return;
      }
      const text = await response.text();
      sent += 1;
      const label = `${c.op.method} ${c.op.path} [${c.identity}, ${c.kind}] ${c.url.slice(0, 160)} -> ${response.status}`;
      const contentType = response.headers.get('content-type') ?? '';
      let body: unknown = text;
      if (contentType.includes('json') && text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          failures.push(`${label}: a JSON content type with a body that is not JSON: ${text.slice(0, 200)}`);
          return;
        }
      }
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      covered[c.identity].add(`${c.op.method} ${c.op.path}`);
      const breach = contract.check({ method: c.op.method, url: c.url, status: response.status, contentType, body });
      if (breach) failures.push(`${label}: ${breach}`);
      // 501 is documented where a feature is not configured (Google sign-in); any other 5xx is a fault.
      else if (response.status >= 500 && response.status !== 501) failures.push(`${label}: a ${response.status}: ${text.slice(0, 200)}`);
      if (c.mustRefuse && c.identity === 'admin' && response.status < 500) {
        refusalsChecked += 1;
        if (response.status < 400) failures.push(`${label}: ${c.mustRefuse} breaks the documented schema but the server accepted it`);
      }
      // A case that signed the administrator out (logout, password change) must not end the run's coverage.
      if (c.identity === 'admin' && response.status === 401) adminToken = await server.login(server.admin.username, server.admin.password);
    };

    // Every operation first, in each way, then random ones until the time bound.
    for (const op of operations) {
      for (const identity of ['admin', 'anonymous'] as const) {
        await send(buildCase(rng, op, identity, true));
        await send(buildCase(rng, op, identity, false));
      }
    }
    const deadline = Date.now() + SECONDS * 1000;
    while (Date.now() < deadline) {
      await send(buildCase(rng, rng.pick(operations), rng.chance(0.75) ? 'admin' : 'anonymous', rng.chance(0.5)));
    }
    console.log(`[contract ${backend}] seed=${SEED} operations=${operations.length} requests=${sent} refusals checked=${refusalsChecked} statuses=${JSON.stringify(statuses)} failures=${failures.length}`);
    if (failures.length) console.log(`[contract ${backend}] failures:\n${[...new Set(failures)].slice(0, 60).join('\n')}`);
    expect(operations.length).toBeGreaterThan(150);
    expect(operations.filter((op) => !covered.admin.has(`${op.method} ${op.path}`) || !covered.anonymous.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(refusalsChecked).toBeGreaterThan(20);
    expect([...new Set(failures)].slice(0, 30)).toEqual([]);
  }, (SECONDS + 150) * 1000);
});
