import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEntityClients } from '../../src/generated/entity-clients.ts';
import { graphqlDocuments } from '../../src/generated/graphql-operations.ts';
import { RestTransport } from '../../runtime/transport/rest-transport.ts';
import { GraphqlTransport } from '../../runtime/transport/graphql-transport.ts';
import { ApiError } from '../../runtime/transport/api-error.ts';
import { GRAPHQL_MAX_DEPTH } from '../../server/graphql/graphql-feature.ts';
import { GRAPHQL_MAX_ALIASES, GRAPHQL_MAX_ROOT_FIELDS } from '../../server/graphql/query-limits.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge, traceStatus, userWith } from './helpers/fixtures.ts';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

const clientsFor = (kind: 'rest' | 'graphql', token: string) => {
  const options = { baseUrl: server.baseUrl, getToken: () => token };
  return createEntityClients(kind === 'rest' ? new RestTransport(options) : new GraphqlTransport({ ...options, documents: graphqlDocuments }));
};

/** Same data, either transport: absent and null are one thing, key order is not meaningful. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, normalise(v)]));
  }
  return value;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

type Inputs = (n: string) => Promise<Record<string, unknown>>;

describe('entity client contract: REST and GraphQL give identical results', () => {
  const inputs: Record<string, Inputs> = {
    bottracestatus: async (n) => ({ name: `status ${n}`, description: 'contract' }),
    contact: async (n) => ({ name: `Contact ${n}`, email: `${n}@example.com`, memory: [{ attribute: 'likes', content: 'tea' }] }),
    tenant: async (n) => ({ name: `Tenant ${n}` }),
    role: async (n) => ({ name: `Contract ${n}`, permissions: ['bot:view'] }),
    bot: async (n) => minimalBot(`Bot ${n}`, { questions: ['¿Qué hora es?'] }),
    knowledge: async (n) => minimalKnowledge(`Knowledge ${n}`),
    knowledgesource: async (n) => ({ name: `Source ${n}`, type: 'chunk', chunks: [{ content: `chunk ${n}`, tags: ['a'] }] }),
    bottrace: async (n) => ({
      status: (await traceStatus<{ _id: string }>(server, 'ok'))._id,
      bot: (await create<{ _id: string }>(server, '/api/bots', minimalBot(`Traced ${n}`)))._id,
      userMessage: `question ${n}`, latency: 1234, reaction: 'Helpful',
    }),
    userApiKey: async (n) => ({ name: `key ${n}`, ipv4: ['10.0.0.1'] }),
  };

  for (const [entity, makeInput] of Object.entries(inputs)) {
    test(entity, async () => {
      const rest = clientsFor('rest', server.admin.token)[entity as 'bot'];
      const gql = clientsFor('graphql', server.admin.token)[entity as 'bot'];
      const a = await rest.create({ data: await makeInput(`${entity}-a`) as never });
      const b = await gql.create({ data: await makeInput(`${entity}-b`) as never });
      // The one difference by design: a new API key's secret comes back once, from REST (and from
      // GraphQL's userApiKeyCreateWithSecret); the generic GraphQL type has no secret field.
      const { secret: _secret, ...restCreated } = a as unknown as Record<string, unknown>;
      expect(Object.keys(normalise(b) as object).sort()).toEqual(Object.keys(normalise(restCreated) as object).sort());

      const same = async (call: (p: typeof rest) => Promise<unknown>) => {
        const [fromRest, fromGql] = await Promise.all([call(rest), call(gql)]);
        expect(normalise(fromGql)).toEqual(normalise(fromRest));
        return fromRest;
      };
      await same((p) => p.findById({ id: a._id }));
      await same((p) => p.findByIds({ ids: [a._id, b._id] }));
      // GraphQL pages also carry page and limit (docs/product-rules.md#entities "Paginated list"); items and total must agree.
      const itemsAndTotal = (page: { items: unknown[]; total: number }) => ({ items: page.items, total: page.total });
      const page = (await same(async (p) => itemsAndTotal(await p.paginate({ page: 1, limit: 50, orderBy: 'createdAt', order: 'desc' })))) as { total: number };
      expect(page.total).toBeGreaterThanOrEqual(2);
      await same(async (p) => itemsAndTotal(await p.paginate({ page: 1, limit: 1, orderBy: '_id', order: 'asc', filters: [{ field: '_id', operator: 'in', value: [a._id, b._id] }] })));
      await same((p) => p.find({ filters: [{ field: '_id', operator: 'ne', value: a._id }], limit: 10 }));
      await same((p) => p.findOne({ filters: [{ field: '_id', operator: 'eq', value: b._id }] }));
      await same((p) => p.search({ search: entity === 'bottrace' ? '' : `${entity}-a` }));
      const exported = await Promise.all([rest.export({ format: 'JSON' }), gql.export({ format: 'JSON' })]);
      expect(exported[1].rowCount).toBe(exported[0].rowCount);

      const model = rest.entity;
      const editable = model.fields.find((f) => !f.readonly && f.type === 'string' && !f.visibleWhen);
      if (editable && model.flags.editable) {
        const updated = await gql.update({ id: a._id, data: { [editable.name]: `Edited ${entity}` } as never });
        expect((updated as unknown as Record<string, unknown>)[editable.name]).toBe(`Edited ${entity}`);
        expect(normalise(await rest.findById({ id: a._id }))).toEqual(normalise(updated));
      }
      await expect(gql.delete({ id: b._id })).resolves.toBe(true);
      await expect(rest.delete({ id: a._id })).resolves.toBe(true);
      for (const p of [rest, gql]) expect((await failure(p.findById({ id: a._id }))).status).toBe(404);
    });
  }

  test('validation errors arrive with the same inputErrors', async () => {
    const fromRest = await failure(clientsFor('rest', server.admin.token).bot.create({ data: { name: '', description: 'x'.repeat(2001) } as never }));
    const fromGql = await failure(clientsFor('graphql', server.admin.token).bot.create({ data: { name: '', description: 'x'.repeat(2001) } as never }));
    expect(fromGql.message).toBe('error.validation');
    expect(fromGql.inputErrors).toEqual(fromRest.inputErrors);
    expect(fromGql.inputErrors).toEqual({ name: ['validation.required'], description: ['validation.maxLength'] });
  });

  test('a bad filter or sort field is refused with the REST message', async () => {
    const fromRest = await failure(clientsFor('rest', server.admin.token).bot.paginate({ orderBy: 'nope' }));
    const fromGql = await failure(clientsFor('graphql', server.admin.token).bot.paginate({ orderBy: 'nope' }));
    expect(fromGql.status).toBe(400);
    expect(fromGql.message).toBe(fromRest.message);
  });

  test('filters stay typed: a value holding | ; or , is one value, lists are lists, and bad ones get the REST message', async () => {
    const made = await graphql(server.admin.token, 'mutation($d: BotInput!) { botCreate(data: $d) { _id } }', { d: { name: 'a|b;c,d', description: 'x' } });
    const id = made.body.data!.botCreate._id as string;
    const byName = await graphql(server.admin.token, 'query($f: [FilterInput!]) { botFind(filters: $f) { _id name } }', { f: [{ field: 'name', operator: 'eq', value: 'a|b;c,d' }] });
    expect(byName.body.data!.botFind).toEqual([{ _id: id, name: 'a|b;c,d' }]);
    const byList = await graphql(server.admin.token, 'query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: [{ field: '_id', operator: 'in', value: [id, 'missing'] }] });
    expect(byList.body.data!.botFind).toEqual([{ _id: id }]);
    const listForEq = await graphql(server.admin.token, 'query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: [{ field: 'name', operator: 'eq', value: ['a', 'b'] }] });
    expect(listForEq.body.errors?.[0].extensions).toMatchObject({ status: 400 });
    expect(listForEq.body.errors?.[0].message).toMatch(/eq takes one value, not a list/);
    const unknown = await graphql(server.admin.token, 'query($f: [FilterInput!]) { botFind(filters: $f) { _id } }', { f: [{ field: 'systemPrompt', operator: 'eq', value: 'x' }] });
    expect(unknown.body.errors?.[0].message).toMatch(/Unknown filter field "systemPrompt" for bot/);
  });
});

async function graphql(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] } };
}

describe('GraphQL authorization mirrors REST', () => {
  test('no token 401, expired 401 with tokenExpired, no permission 403, permission ok — for every entity', async () => {
    const viewer = await userWith(server, ['contact:view']);
    const expired = await server.signToken({ sub: viewer.user._id, role: viewer.role._id }, -60);
    for (const [entity, documents] of Object.entries(graphqlDocuments)) {
      const query = documents!.paginate!;
      const anonymous = await graphql(null, query);
      expect(anonymous.body.errors?.[0].extensions, entity).toMatchObject({ status: 401, i18nMessage: 'error.authRequired' });
      const old = await graphql(expired, query);
      expect(old.body.errors?.[0].extensions, entity).toMatchObject({ status: 401, i18nMessage: 'error.tokenExpired' });
      const asViewer = await graphql(viewer.token, query);
      if (entity === 'contact') expect(asViewer.body.errors, entity).toBeUndefined();
      else expect(asViewer.body.errors?.[0].extensions, entity).toMatchObject({ status: 403, i18nMessage: 'error.forbidden' });
    }
  });

  test('tenant isolation: another tenant\'s record is not found, and lists hold only one\'s own', async () => {
    const tenantA = await create<{ _id: string }>(server, '/api/tenants', { name: 'GQL tenant A' });
    const tenantB = await create<{ _id: string }>(server, '/api/tenants', { name: 'GQL tenant B' });
    const userA = await userWith(server, ['contact:manage'], { tenant: tenantA._id });
    const userB = await userWith(server, ['contact:manage'], { tenant: tenantB._id });
    const created = await graphql(userA.token, 'mutation { contactCreate(data: {name: "Only A"}) { _id tenant } }');
    const id = created.body.data!.contactCreate._id;
    expect(created.body.data!.contactCreate.tenant).toBe(tenantA._id);
    const fromB = await graphql(userB.token, `{ contactFindById(id: "${id}") { _id } }`);
    expect(fromB.body.errors?.[0].extensions?.status).toBe(404);
    const listB = await graphql(userB.token, '{ contactFind(limit: 100) { _id } }');
    expect(listB.body.data!.contactFind.map((c: { _id: string }) => c._id)).not.toContain(id);
    const deleteB = await graphql(userB.token, `mutation { contactDelete(id: "${id}") }`);
    expect(deleteB.body.errors?.[0].extensions?.status).toBe(404);
  });

  test('login, me and permissions work over GraphQL; settings say Not implemented', async () => {
    const login = await graphql(null, 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { accessToken } }', { u: server.admin.username, p: server.admin.password });
    const token = login.body.data!.login.accessToken;
    const me = await graphql(token, '{ me { username role { name permissions } } permissions }');
    expect(me.body.data!.me.username).toBe(server.admin.username);
    expect(me.body.data!.permissions).toContain('bot:manage');
    const wrong = await graphql(null, 'mutation { login(username: "admin", password: "wrong-password") { accessToken } }');
    expect(wrong.body.errors?.[0].extensions).toMatchObject({ status: 401, i18nMessage: 'error.invalidCredentials' });
    const settings = await graphql(token, '{ settings }');
    expect(settings.body.errors?.[0].message).toBe('Not implemented');
  });
});

describe('GraphQL limits', () => {
  test(`a query nested deeper than ${GRAPHQL_MAX_DEPTH} is refused`, async () => {
    let inner = 'name';
    for (let i = 0; i < GRAPHQL_MAX_DEPTH; i++) inner = `ofType { ${inner} }`;
    const response = await graphql(server.admin.token, `{ __schema { types { fields { type { ${inner} } } } } }`);
    expect(response.body.data ?? null).toBeNull();
    expect(response.body.errors?.[0].message).toMatch(/query depth \(\d+\) exceeds the query depth limit of 8/);
  });

  const refused = (response: Awaited<ReturnType<typeof graphql>>, pattern: RegExp, i18nMessage: string) => {
    expect(response.status).toBe(400);
    expect(response.body.data ?? null).toBeNull();
    const error = response.body.errors?.[0];
    expect(error?.message).toMatch(pattern);
    // The API's one error shape in extensions: status, message, i18nMessage.
    expect(error?.extensions).toMatchObject({ status: 400, message: error?.message, i18nMessage });
  };
  const costly = /Query too costly: it may read \d+ field values .* at most 100000/;

  test('hundreds of cheap aliases are refused by the root-field and alias caps before anything runs', async () => {
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: botFind(limit: 1) { _id }`).join('\n');
    refused(await graphql(server.admin.token, `{ ${aliases} }`), new RegExp(`Too many root fields: .*at most ${GRAPHQL_MAX_ROOT_FIELDS}`), 'error.graphql.tooManyFields');
    const inner = Array.from({ length: GRAPHQL_MAX_ALIASES + 1 }, (_, i) => `n${i}: name`).join(' ');
    refused(await graphql(server.admin.token, `{ botFind(limit: 1) { ${inner} } }`), new RegExp(`Too many aliases: .*at most ${GRAPHQL_MAX_ALIASES}`), 'error.graphql.tooManyFields');
    // Thousands of plain fields (no alias) stop at the cost rule's node budget (graphql's own
    // overlap check may add "Validation aborted.", and mercurius then answers 200: still refused).
    const plain = await graphql(server.admin.token, `{ botFindOne { ${Array.from({ length: 6000 }, () => 'name').join(' ')} } }`);
    expect(plain.body.data ?? null).toBeNull();
    expect(plain.body.errors?.[0].extensions).toMatchObject({ status: 400, i18nMessage: 'error.graphql.tooCostly' });
  });

  test('the issue\'s attack: aliased 10,000-row finds are refused by cost (few aliases, each within limits)', async () => {
    const aliases = Array.from({ length: 12 }, (_, i) => `a${i}: contactFind(limit: 10000) { _id name email memory { attribute content } }`).join('\n');
    refused(await graphql(server.admin.token, `{ ${aliases} }`), costly, 'error.graphql.tooCostly');
  });

  test('the limit counts when it comes from a variable, and the default limit counts when absent', async () => {
    const query = 'query($n: Int) { a: botFind(limit: $n) { _id name } b: botFind(limit: $n) { _id name } c: botFind(limit: $n) { _id name } d: botFind(limit: $n) { _id name } }';
    refused(await graphql(server.admin.token, query, { n: 10_000 }), costly, 'error.graphql.tooCostly');
    // 4 × 10 rows × 3 = cheap: runs.
    const small = await graphql(server.admin.token, query, { n: 10 });
    expect(small.body.errors).toBeUndefined();
    expect(Array.isArray(small.body.data?.a)).toBe(true);
    // Paginate: the rows are the page size.
    refused(await graphql(server.admin.token, 'query($n: Int) { x: contactPaginate(limit: $n) { items { _id name email memory { content } } total } y: contactPaginate(limit: $n) { items { _id } } }', { n: 10_000 }), costly, 'error.graphql.tooCostly');
  });

  test('fragments repeating fields are counted each time they are spread', async () => {
    const fragment = 'fragment F on Query { a: conversationFind(limit: 2000) { _id chats { id role message createdAt reaction } } }';
    // One spread: 2,000 rows × (1 + 1 + 1 + 10 × 5) = 106,001 > 100,000.
    refused(await graphql(server.admin.token, `{ ...F } ${fragment}`), costly, 'error.graphql.tooCostly');
    const rowFields = 'fragment R on Bot { _id name description questions createdAt updatedAt knowledge { _id name } }';
    const spreads = Array.from({ length: 12 }, () => '...R').join(' ');
    refused(await graphql(server.admin.token, `{ botFind(limit: 1000) { ${spreads} } } ${rowFields}`), costly, 'error.graphql.tooCostly');
    // Root fields through fragments: the cap counts the expanded selection.
    const many = Array.from({ length: 8 }, (_, i) => `f${i}: botFindOne { _id }`).join(' ');
    refused(await graphql(server.admin.token, `{ ...M ...M ...M } fragment M on Query { ${many} }`), new RegExp(`at most ${GRAPHQL_MAX_ROOT_FIELDS}`), 'error.graphql.tooManyFields');
  });

  test('nested lists multiply: embedded lists are priced per item, pages per row', async () => {
    refused(await graphql(server.admin.token, '{ knowledgeSourceFind(limit: 5000) { _id chunks { content hash category tags } } }'), costly, 'error.graphql.tooCostly');
    refused(await graphql(server.admin.token, '{ knowledgeSourcePaginate(limit: 3000) { items { _id chunks { content hash category tags } } total } }'), costly, 'error.graphql.tooCostly');
    // The same shape with fewer rows runs.
    const fewer = await graphql(server.admin.token, '{ knowledgeSourcePaginate(limit: 100) { items { _id chunks { content hash category tags } } total } }');
    expect(fewer.body.errors).toBeUndefined();
    refused(await graphql(server.admin.token, `{ ${Array.from({ length: 6 }, (_, i) => `e${i}: botExport(format: CSV) { url }`).join(' ')} }`), costly, 'error.graphql.tooCostly');
    // The "all" lists return every row: priced as the largest page, so aliases cannot multiply them.
    expect((await graphql(server.admin.token, '{ rolesAll { _id name permissions } }')).body.errors).toBeUndefined();
    refused(await graphql(server.admin.token, `{ ${Array.from({ length: 4 }, (_, i) => `r${i}: rolesAll { _id name permissions }`).join(' ')} }`), costly, 'error.graphql.tooCostly');
  });

  test('many root fields without aliases (mutations too) are refused', async () => {
    const fields = Array.from({ length: GRAPHQL_MAX_ROOT_FIELDS + 1 }, (_, i) => `l${i}: login(username: "admin", password: "x${i}") { accessToken }`).join(' ');
    refused(await graphql(null, `mutation { ${fields} }`), new RegExp(`at most ${GRAPHQL_MAX_ROOT_FIELDS}`), 'error.graphql.tooManyFields');
    const ids = Array.from({ length: 10_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    refused(await graphql(server.admin.token, 'query($ids: [ID!]!) { a: botFindByIds(ids: $ids) { _id name description questions createdAt updatedAt knowledge { _id name } } }', { ids }), costly, 'error.graphql.tooCostly');
  });

  test('ordinary console queries stay within the limits', async () => {
    // The console's role form reads 1,000 roles; a CRUD page reads up to 100 rows with every column.
    const roles = await graphql(server.admin.token, '{ result: roleFind(limit: 1000) { _id name childRoles { _id name } permissions readonly createdAt updatedAt } }');
    expect(roles.body.errors).toBeUndefined();
    const page = await graphql(server.admin.token, '{ result: knowledgeSourcePaginate(limit: 100) { items { _id name type file { url } link sourceText text chunks { content hash category tags } user { _id username } tenant createdAt updatedAt } total page limit } }');
    expect(page.body.errors).toBeUndefined();
    // One 10,000-row page of a few fields, as REST allows.
    const big = await graphql(server.admin.token, '{ contactFind(limit: 10000) { _id name email createdAt } }');
    expect(big.body.errors).toBeUndefined();
    const introspection = await graphql(server.admin.token, '{ __schema { types { name fields { name args { name type { name kind ofType { name kind } } } type { name kind ofType { name kind } } } } } }');
    expect(introspection.body.errors).toBeUndefined();
  });

  test('the server keeps answering after refusals', async () => {
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(200);
  });
});

describe('GraphQL uploads', () => {
  test('uploadFile follows the multipart request spec and stores the file like REST', async () => {
    const transport = new GraphqlTransport({ baseUrl: server.baseUrl, getToken: () => server.admin.token, documents: graphqlDocuments });
    const file = new File(['hola mundo'], 'saludo.txt', { type: 'text/plain' });
    const stored = await transport.uploadFile({ file, dir: 'docs' });
    expect(stored).toMatchObject({ filename: 'saludo.txt', size: 10, mimetype: 'text/plain' });
    expect(stored.filepath).toMatch(/^docs\/\d{4}\/\d{2}\//);
    const served = await fetch(`${server.baseUrl}${stored.url}`);
    expect(await served.text()).toBe('hola mundo');
  });

  test('anonymous uploads are refused', async () => {
    const transport = new GraphqlTransport({ baseUrl: server.baseUrl, getToken: () => null, documents: graphqlDocuments });
    const error = await failure(transport.uploadFile({ file: new File(['x'], 'x.txt') }));
    expect(error.status).toBe(401);
  });
});
