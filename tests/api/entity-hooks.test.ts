// Issue 17: every write runs an entity's lifecycle hooks in the documented order
// (server/entities/README.md), whatever the path (REST, GraphQL, import); system() is the one
// context that bypasses access rules; GraphQL refuses what REST refuses, with the same error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../server/http/http-error.ts';
import { system } from '../../server/entities/system-context.ts';
import type { EntityService } from '../../server/entities/entity-service.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalKnowledge, userWith } from './helpers/fixtures.ts';

let server: TestServer;
let service: EntityService;
const calls: string[] = [];
let adminId: string;

async function graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.as({ token }).post('/graphql', { query, variables });
  return res.body as { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

beforeAll(async () => {
  server = await startTestServer();
  service = server.forja.service;
  adminId = (await server.get('/api/auth/me')).body._id;
  // Contacts have no hooks of their own: these record every stage, in the order they run.
  service.hooks.add('contact', {
    writeLock: async (work) => {
      calls.push('writeLock:start');
      try {
        return await work();
      } finally {
        calls.push('writeLock:end');
      }
    },
    beforeValidate: (event) => {
      calls.push(`beforeValidate:${event.operation}`);
      // A hook may normalise the body before it is validated.
      if (typeof event.data.name === 'string') event.data.name = event.data.name.trim();
    },
    beforeChange: (event) => {
      calls.push(`beforeChange:${event.operation}`);
      if (event.data.name === 'Refused by hook') throw new HttpError(422, 'No such names here', { i18nMessage: 'error.forbidden' });
    },
    beforeInsert: (event) => {
      calls.push('beforeInsert');
      event.reply.greeting = `hello ${String(event.values.name)}`;
    },
    afterChange: (event) => {
      calls.push(`afterChange:${event.operation}:${String(event.record.name)}`);
    },
    afterRead: (event) => {
      calls.push('afterRead');
      event.record.readBy = event.context.userId ?? 'system';
    },
    beforeDelete: (event) => {
      calls.push(`beforeDelete:${String(event.original?.name)}`);
    },
  });
  // Bot trace statuses: an afterChange that counts what imports create.
  service.hooks.add('bottracestatus', {
    afterChange: (event) => {
      calls.push(`status-created:${String(event.record.name)}`);
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('lifecycle hooks', () => {
  it('a create runs writeLock, beforeValidate, beforeChange, beforeInsert, the write, afterRead, afterChange in that order', async () => {
    calls.length = 0;
    const res = await server.post('/api/contacts', { name: '  Ada Lovelace  ', email: 'ada@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Ada Lovelace');
    expect(res.body.greeting).toBe('hello Ada Lovelace');
    expect(res.body.readBy).toBe(adminId);
    expect(calls).toEqual([
      'writeLock:start',
      'beforeValidate:create',
      'beforeChange:create',
      'beforeInsert',
      'afterRead',
      'afterChange:create:Ada Lovelace',
      'writeLock:end',
    ]);
  });

  it('an update and a delete run theirs; reads run afterRead on every record', async () => {
    const contact = await create(server, '/api/contacts', { name: 'Grace Hopper' });
    calls.length = 0;
    const updated = await server.put(`/api/contacts/${contact._id}`, { name: ' Grace B. Hopper ' });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Grace B. Hopper');
    expect(calls).toEqual(['writeLock:start', 'beforeValidate:update', 'beforeChange:update', 'afterRead', 'afterChange:update:Grace B. Hopper', 'writeLock:end']);

    calls.length = 0;
    const list = await server.get('/api/contacts?limit=100');
    expect(list.body.items.length).toBeGreaterThan(1);
    expect(list.body.items.every((c: any) => c.readBy === adminId)).toBe(true);
    expect(calls.filter((c) => c === 'afterRead')).toHaveLength(list.body.items.length);

    calls.length = 0;
    expect((await server.del(`/api/contacts/${contact._id}`)).status).toBe(204);
    expect(calls).toEqual(['writeLock:start', 'beforeDelete:Grace B. Hopper', 'writeLock:end']);
  });

  it('a hook that throws stops the write: nothing is stored, the caller gets the hook\'s error (REST and GraphQL alike)', async () => {
    calls.length = 0;
    const rest = await server.post('/api/contacts', { name: 'Refused by hook' });
    expect(rest.status).toBe(422);
    expectErrorShape(rest.body);
    expect(rest.body.message).toBe('No such names here');
    expect(calls).not.toContain('beforeInsert');
    const gql = await graphql(server.admin.token, 'mutation { contactCreate(data: { name: "Refused by hook" }) { _id } }');
    expect(gql.errors?.[0].message).toBe('No such names here');
    expect(gql.errors?.[0].extensions).toMatchObject({ status: 422, message: 'No such names here', i18nMessage: 'error.forbidden' });
    const stored = await server.get('/api/contacts/find?search=Refused');
    expect(stored.body).toEqual([]);
  });

  it('GraphQL mutations run the same hooks as REST, with the caller\'s context', async () => {
    calls.length = 0;
    const gql = await graphql(server.admin.token, 'mutation { contactCreate(data: { name: "  Via GraphQL " }) { _id name } }');
    expect(gql.errors).toBeUndefined();
    expect(gql.data!.contactCreate.name).toBe('Via GraphQL');
    expect(calls).toEqual(['writeLock:start', 'beforeValidate:create', 'beforeChange:create', 'beforeInsert', 'afterRead', 'afterChange:create:Via GraphQL', 'writeLock:end']);
    calls.length = 0;
    const removed = await graphql(server.admin.token, `mutation { contactDelete(id: "${gql.data!.contactCreate._id}") }`);
    expect(removed.data?.contactDelete).toBe(true);
    expect(calls).toEqual(['writeLock:start', 'beforeDelete:Via GraphQL', 'writeLock:end']);
  });

  it('an import runs the same hooks per created record (afterChange once each)', async () => {
    calls.length = 0;
    const file = 'name,description\nhook-status-a,first\nhook-status-b,second\n';
    const res = await server.upload('/api/bot-trace-statuses/import?format=CSV', { name: 's.csv', content: file });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(2);
    expect(calls.filter((c) => c.startsWith('status-created:')).sort()).toEqual(['status-created:hook-status-a', 'status-created:hook-status-b']);
  });
});

describe('system(): the privileged local API', () => {
  it('bypasses the access rules a signed-in platform administrator is held to, and may set read-only fields', async () => {
    // A caller's read-only field is dropped; system() sets it.
    const byAdmin = await create(server, '/api/knowledge', minimalKnowledge('Claims trained', { trainedChunks: 7 }));
    expect(byAdmin.trainedChunks ?? null).not.toBe(7);
    const trained = await service.create('knowledge', system(), minimalKnowledge('Trained by system', { trainedChunks: 7 }));
    expect(trained.trainedChunks).toBe(7);
    const locked = await service.create('role', system(), { name: 'Hooks system role', permissions: ['bot:view'], readonly: true });
    expect(locked.readonly).toBe(true);
    // The access rules refuse the administrator on a read-only role (409) but not system().
    const refused = await server.put(`/api/roles/${String(locked._id)}`, { permissions: ['bot:view', 'bot:create'] });
    expect(refused.status).toBe(409);
    expect(refused.body.i18nMessage).toBe('error.readonlyRole');
    const changed = await service.update('role', system(), String(locked._id), { permissions: ['bot:view', 'bot:create'] });
    expect(changed.permissions).toEqual(['bot:view', 'bot:create']);
  });

  it('may store server-derived state without touching updatedAt (touch: false), which no request context may ask for', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Untouched'));
    const trained = await service.update('knowledge', system(), knowledge._id, { trainingState: 'trained', trainedChunks: 3 }, { touch: false });
    expect(trained).toMatchObject({ trainingState: 'trained', trainedChunks: 3, updatedAt: knowledge.updatedAt });
    const caller = { userId: adminId, tenantId: null, permissions: ['*'] };
    await expect(service.update('knowledge', caller, knowledge._id, { name: 'x' }, { touch: false })).rejects.toThrow('for system() writes only');
  });

  it('sees every tenant, where a tenant user sees its own', async () => {
    const tenantA = await create(server, '/api/tenants', { name: 'Hooks tenant A' });
    const tenantB = await create(server, '/api/tenants', { name: 'Hooks tenant B' });
    const userA = await userWith(server, ['contact:view', 'contact:create'], { tenant: tenantA._id });
    const userB = await userWith(server, ['contact:view', 'contact:create'], { tenant: tenantB._id });
    const a = await userA.client.post('/api/contacts', { name: 'Tenant A contact' });
    const b = await userB.client.post('/api/contacts', { name: 'Tenant B contact' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await userA.client.get(`/api/contacts/${b.body._id}`)).status).toBe(404);
    const all = await service.findByIds('contact', system(), [a.body._id, b.body._id]);
    expect(all.map((c) => c.name)).toEqual(['Tenant A contact', 'Tenant B contact']);
    expect(all.every((c) => c.readBy === 'system')).toBe(true);
  });

  it('is never a request\'s context: a signed-in caller holding "*" is still held to the rules', async () => {
    const star = await userWith(server, ['*']);
    const res = await star.client.put(`/api/roles/${(await server.get('/api/roles/all')).body.find((r: any) => r.name === 'Admin')._id}`, { name: 'Renamed Admin' });
    expect(res.status).toBe(409);
    expect(res.body.i18nMessage).toBe('error.readonlyRole');
  });
});

describe('GraphQL writes go through the engine', () => {
  it('a role escalation is refused over GraphQL with the same status, message and key as over REST', async () => {
    const roles = (await server.get('/api/roles/all')).body;
    const admin = roles.find((r: any) => r.name === 'Admin');
    const hr = await userWith(server, ['user:create', 'role:view', 'userApiKey:myView']);
    const body = { name: 'Escalator', username: 'escalator-hooks', email: 'escalator-hooks@example.com', phone: '600', password: 'pw-escalator-1', role: admin._id };
    const rest = await hr.client.post('/api/users', body);
    expect(rest.status).toBe(403);
    const gql = await graphql(hr.token, 'mutation($d: UserInput!) { userCreate(data: $d) { _id } }', { d: body });
    expect(gql.data?.userCreate ?? null).toBeNull();
    expect(gql.errors?.[0].message).toBe(rest.body.message);
    expect(gql.errors?.[0].extensions).toMatchObject({ status: 403, message: rest.body.message, i18nMessage: rest.body.i18nMessage });
    expect(rest.body.message).toMatch(/^Role "Admin" holds every permission: only an administrator may assign it/);
    expect((await server.get('/api/users/find?search=escalator-hooks')).body).toEqual([]);
  });

  it('a validation failure carries the same input errors as REST', async () => {
    const rest = await server.post('/api/contacts', { name: 'x', email: 'not-an-e-mail' });
    const gql = await graphql(server.admin.token, 'mutation { contactCreate(data: { name: "x", email: "not-an-e-mail" }) { _id } }');
    expect(rest.status).toBe(400);
    expect(gql.errors?.[0].extensions).toMatchObject({ status: 400, message: rest.body.message, inputErrors: rest.body.inputErrors });
  });
});
