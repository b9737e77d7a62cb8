// Issue 31 item 1: a table every tenant shares (manifest scope.writes "platform": trace statuses,
// like tenants and roles) is written by platform users only, whatever a tenant user's role says,
// over REST, GraphQL and imports; tenant users still read it. And no delete leaves a reference
// pointing at nothing: a record in use is refused with 409 and the count of records per entity
// (ref.onDelete "restrict", the default), or the optional refs declared "clear" are emptied.
// Runs on SQLite (api) and PostgreSQL (api-postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiClient, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot, minimalKnowledge, traceStatus, userWith, type TestUser } from './helpers/fixtures.ts';
import { system, systemIn } from '../../server/entities/system-context.ts';

let server: TestServer;
let tenantA: any;
let tenantB: any;

const STATUS_PERMS = [
  ['bottracestatus:manage'],
  ['bottracestatus:view', 'bottracestatus:create', 'bottracestatus:update', 'bottracestatus:delete'],
  ['*'],
];

async function graphql(client: ApiClient, query: string) {
  const res = await client.post('/graphql', { query });
  return res.body as { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

async function statusById(id: string) {
  return (await server.get(`/api/bot-trace-statuses/${id}`)).body;
}

beforeAll(async () => {
  server = await startTestServer();
  tenantA = await create(server, '/api/tenants', { name: 'Lookup A' });
  tenantB = await create(server, '/api/tenants', { name: 'Lookup B' });
});
afterAll(async () => {
  await server.close();
});

describe('trace statuses are shared by every tenant: platform users write them, tenant users read them', () => {
  it('a tenant user cannot create, rename or delete a status, whatever its permissions (REST)', async () => {
    const shared = await traceStatus(server, 'shared-rest');
    for (const permissions of STATUS_PERMS) {
      const tenantUser = await userWith(server, permissions, { tenant: tenantA._id });
      const { client } = tenantUser;
      const attempts = [
        await client.post('/api/bot-trace-statuses', { name: `mine ${permissions.length}` }),
        await client.put(`/api/bot-trace-statuses/${shared._id}`, { name: 'renamed by a tenant' }),
        await client.put(`/api/bot-trace-statuses/${shared._id}`, { description: 'only the description' }),
        await client.put(`/api/bot-trace-statuses/${shared._id}`, { name: shared.name }),
        await client.del(`/api/bot-trace-statuses/${shared._id}`),
      ];
      for (const res of attempts) {
        expect(res.status, `${permissions.join(',')}: ${res.text}`).toBe(403);
        expect(res.body.i18nMessage).toBe('error.platformOnly');
        expectErrorShape(res.body);
      }
      // Reading stays open to it.
      expect((await client.get(`/api/bot-trace-statuses/${shared._id}`)).body.name).toBe('shared-rest');
      expect((await client.get('/api/bot-trace-statuses?limit=100')).body.items.map((s: any) => s.name)).toContain('shared-rest');
      // A status that does not exist is still a 404, not a 403.
      expect((await client.put('/api/bot-trace-statuses/no-such-id', { name: 'x' })).status).toBe(404);
      expect((await client.del('/api/bot-trace-statuses/no-such-id')).status).toBe(404);
    }
    expect(await statusById(shared._id)).toMatchObject({ name: 'shared-rest' });
    expect((await server.get('/api/bot-trace-statuses/find?search=mine')).body).toEqual([]);
  });

  it('nor through GraphQL mutations', async () => {
    const shared = await traceStatus(server, 'shared-gql');
    const { client } = await userWith(server, ['bottracestatus:manage'], { tenant: tenantB._id });
    const mutations = [
      `mutation { botTraceStatusCreate(data: { name: "gql mine" }) { _id } }`,
      `mutation { botTraceStatusUpdate(id: "${shared._id}", data: { name: "gql renamed" }) { _id } }`,
      `mutation { botTraceStatusDelete(id: "${shared._id}") }`,
    ];
    for (const mutation of mutations) {
      const res = await graphql(client, mutation);
      expect(res.errors?.[0]?.extensions?.status, mutation).toBe(403);
      expect(res.errors?.[0]?.extensions?.i18nMessage ?? res.errors?.[0]?.message).toMatch(/platformOnly|platform administrators/);
    }
    const read = await graphql(client, `{ botTraceStatusFindById(id: "${shared._id}") { name } }`);
    expect(read.data?.botTraceStatusFindById.name).toBe('shared-gql');
    expect(await statusById(shared._id)).toMatchObject({ name: 'shared-gql' });
  });

  it('nor by importing rows into it (CSV, JSON, dry run or not); nothing is written', async () => {
    const { client } = await userWith(server, ['bottracestatus:manage'], { tenant: tenantA._id });
    const files = [
      { query: '?format=CSV', file: { name: 's.csv', content: 'name;description\nimported-by-tenant;x\n' } },
      { query: '?format=CSV&dryRun=true', file: { name: 's.csv', content: 'name;description\nimported-dry;x\n' } },
      { query: '', file: { name: 's.json', content: JSON.stringify([{ name: 'imported-json' }]) } },
    ];
    for (const { query, file } of files) {
      const res = await client.upload(`/api/bot-trace-statuses/import${query}`, file);
      expect(res.status, res.text).toBe(403);
      expect(res.body.i18nMessage).toBe('error.platformOnly');
    }
    expect((await server.get('/api/bot-trace-statuses/find?search=imported')).body).toEqual([]);
  });

  it('a platform user with the same permissions creates, renames, imports and deletes an unused status', async () => {
    for (const permissions of STATUS_PERMS.slice(0, 2)) {
      const { client } = await userWith(server, permissions);
      const made = await client.post('/api/bot-trace-statuses', { name: `platform ${permissions.length}` });
      expect(made.status, made.text).toBe(201);
      const renamed = await client.put(`/api/bot-trace-statuses/${made.body._id}`, { name: `platform renamed ${permissions.length}` });
      expect(renamed.status).toBe(200);
      expect(renamed.body.name).toBe(`platform renamed ${permissions.length}`);
      expect((await client.del(`/api/bot-trace-statuses/${made.body._id}`)).status).toBe(204);
    }
    const { client } = await userWith(server, ['bottracestatus:manage']);
    const imported = await client.upload('/api/bot-trace-statuses/import?format=CSV', { name: 's.csv', content: 'name\nplatform-imported\n' });
    expect(imported.status, imported.text).toBe(200);
    const gql = await graphql(client, `mutation { botTraceStatusCreate(data: { name: "platform gql" }) { _id } }`);
    const id = gql.data!.botTraceStatusCreate._id;
    expect((await graphql(client, `mutation { botTraceStatusUpdate(id: "${id}", data: { description: "d" }) { description } }`)).data?.botTraceStatusUpdate.description).toBe('d');
    expect((await graphql(client, `mutation { botTraceStatusDelete(id: "${id}") }`)).errors).toBeUndefined();
  });

  it('the chat still creates a missing status for a tenant bot (system), and tenant users still write their own traces with it', async () => {
    const status = await traceStatus(server, 'chat-made');
    const writer = await userWith(server, ['bot:manage', 'bottrace:manage', 'bottracestatus:view'], { tenant: tenantA._id });
    const bot = await writer.client.post('/api/bots', minimalBot('Tenant bot'));
    const trace = await writer.client.post('/api/bot-traces', { status: status._id, bot: bot.body._id, chatId: 'c1' });
    expect(trace.status, trace.text).toBe(201);
    const made = await server.forja.service.create('bottracestatus', systemIn(tenantA._id), { name: 'system-made' });
    expect(made.name).toBe('system-made');
  });
});

describe('a record in use is never deleted: 409 with the count, by entity', () => {
  async function tracesWith(statusId: string, client: ApiClient, bot: string, n: number) {
    for (let i = 0; i < n; i++) expect((await client.post('/api/bot-traces', { status: statusId, bot, chatId: `in-use-${i}` })).status).toBe(201);
  }

  it('a status used by traces of two tenants: refused for everyone (REST and GraphQL), the traces keep it; free once unused', async () => {
    const status = await traceStatus(server, 'in-use');
    const spare = await traceStatus(server, 'spare');
    const a = await userWith(server, ['bot:manage', 'bottrace:manage'], { tenant: tenantA._id });
    const b = await userWith(server, ['bot:manage', 'bottrace:manage'], { tenant: tenantB._id });
    const botA = (await a.client.post('/api/bots', minimalBot('In use A'))).body;
    const botB = (await b.client.post('/api/bots', minimalBot('In use B'))).body;
    await tracesWith(status._id, a.client, botA._id, 2);
    await tracesWith(status._id, b.client, botB._id, 1);

    const refused = await server.del(`/api/bot-trace-statuses/${status._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ i18nMessage: 'error.recordInUse', references: { bottrace: 3 }, i18nParams: { count: 3 } });
    expect(refused.body.message).toMatch(/used by 3 records \(bottrace: 3\)/);
    const gql = await graphql(server, `mutation { botTraceStatusDelete(id: "${status._id}") }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(409);
    // The traces of both tenants still carry it.
    for (const { client } of [a, b]) {
      for (const trace of (await client.get('/api/bot-traces?limit=100')).body.items.filter((t: any) => String(t.chatId).startsWith('in-use-'))) {
        expect(trace.status).toMatchObject({ _id: status._id, name: 'in-use' });
      }
    }
    // Moved off it, the status may go.
    for (const { client } of [a, b]) {
      for (const trace of (await client.get('/api/bot-traces?limit=100')).body.items.filter((t: any) => t.status?._id === status._id)) {
        expect((await client.put(`/api/bot-traces/${trace._id}`, { status: spare._id })).status).toBe(200);
      }
    }
    expect((await server.del(`/api/bot-trace-statuses/${status._id}`)).status).toBe(204);
  });

  it('a required reference is never emptied: a bot with traces, even for system()', async () => {
    const a = await userWith(server, ['bot:manage', 'bottrace:manage'], { tenant: tenantA._id });
    const status = await traceStatus(server, 'ok');
    const bot = (await a.client.post('/api/bots', minimalBot('Traced bot'))).body;
    await tracesWith(status._id, a.client, bot._id, 2);
    const own = await a.client.del(`/api/bots/${bot._id}`);
    expect(own.status).toBe(409);
    expect(own.body.references).toEqual({ bottrace: 2 });
    // Another tenant's user learns nothing: 404 as for any record out of its scope.
    const b = await userWith(server, ['bot:manage'], { tenant: tenantB._id });
    expect((await b.client.del(`/api/bots/${bot._id}`)).status).toBe(404);
    await expect(server.forja.service.delete('bot', system(), bot._id)).rejects.toMatchObject({ statusCode: 409 });
    expect((await a.client.get(`/api/bots/${bot._id}`)).status).toBe(200);
  });

  it('an optional reference counts too (a knowledge source listed by a knowledge base, a knowledge base a bot uses)', async () => {
    const source = await create(server, '/api/knowledge-sources', { name: 'Used source', type: 'text', sourceText: 'a', text: 'a' });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Uses it', { sources: [source._id] }));
    const bot = await create(server, '/api/bots', minimalBot('Uses knowledge', { knowledge: knowledge._id }));
    const sourceRefused = await server.del(`/api/knowledge-sources/${source._id}`);
    expect(sourceRefused.status, sourceRefused.text).toBe(409);
    expect(sourceRefused.body.references).toEqual({ knowledge: 1 });
    const knowledgeRefused = await server.del(`/api/knowledge/${knowledge._id}`);
    expect(knowledgeRefused.status).toBe(409);
    expect(knowledgeRefused.body.references).toEqual({ bot: 1 });
    expect((await server.put(`/api/bots/${bot._id}`, { knowledge: null })).status).toBe(200);
    expect((await server.del(`/api/knowledge/${knowledge._id}`)).status).toBe(204);
    expect((await server.del(`/api/knowledge-sources/${source._id}`)).status).toBe(204);
  });

  it('a ref declared onDelete "clear" is emptied with the delete (a conversation\'s traces), in one transaction', async () => {
    const status = await traceStatus(server, 'ok');
    const bot = await create(server, '/api/bots', minimalBot('Conversation bot'));
    const contact = await create(server, '/api/contacts', { name: 'Visitor', email: 'visitor@example.com' });
    const conversation = await server.forja.service.create('conversation', system(), { contact: contact._id, bot: bot._id, chats: [] });
    const trace = await create(server, '/api/bot-traces', { status: status._id, bot: bot._id, conversation: conversation._id, chatId: 'cleared' });
    // The contact is still used by the conversation.
    expect((await server.del(`/api/contacts/${contact._id}`)).body.references).toEqual({ conversation: 1 });
    expect((await server.del(`/api/conversations/${conversation._id}`)).status).toBe(204);
    const after = (await server.get(`/api/bot-traces/${trace._id}`)).body;
    expect(after.conversation ?? null).toBeNull();
    expect(after.status).toMatchObject({ _id: status._id });
    expect((await server.del(`/api/contacts/${contact._id}`)).status).toBe(204);
  });
});
