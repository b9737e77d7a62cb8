// Tenant isolation for every tenant-scoped entity, and the role/tenant/permission lookups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../server/generated/entities.ts';
import { insertRecord } from '../../server/seed/insert-record.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectNoLeaks, userWith, type TestUser } from './helpers/fixtures.ts';

let server: TestServer;
let tenantA: any;
let tenantB: any;
let alice: TestUser;
let bob: TestUser;
const tenantScoped = Object.values(entities).filter((m) => m.storage.tenantColumn && m.api.endpoints === 'generic');
const managing = tenantScoped.flatMap((m) => [m.permissions.manage]);

beforeAll(async () => {
  server = await startTestServer();
  tenantA = await create(server, '/api/tenants', { name: 'Tenant A' });
  tenantB = await create(server, '/api/tenants', { name: 'Tenant B' });
  alice = await userWith(server, managing, { tenant: tenantA._id });
  bob = await userWith(server, managing, { tenant: tenantB._id });
});
afterAll(async () => {
  expectNoLeaks(server);
  await server.close();
});

describe.each(tenantScoped.map((m) => [m.name, m] as const))('tenant isolation: %s', (_name, model) => {
  it('a record of tenant A is invisible and untouchable for tenant B, visible to A and to the platform admin', async () => {
    const definition = server.forja.service.definition(model.name);
    const values: Record<string, unknown> = { tenant: tenantA._id };
    if (definition.fields.has('name')) values.name = `A ${model.name}`;
    if (definition.fields.has('username')) values.username = `a-${model.name}`;
    const id = await insertRecord(server.forja.database, definition, values);
    const base = model.api.basePath;
    const listed = (client: typeof server) => client.get(`${base}?limit=100`).then((r) => r.body.items.map((item: any) => item._id));

    expect(await listed(bob.client as TestServer)).not.toContain(id);
    expect((await bob.client.get(`${base}/${id}`)).status).toBe(404);
    expect((await bob.client.get(`${base}/ids/${id}`)).body).toEqual([]);
    if (model.flags.editable) expect((await bob.client.put(`${base}/${id}`, {})).status).toBe(404);
    if (model.flags.deletable) expect((await bob.client.del(`${base}/${id}`)).status).toBe(404);

    if (!definition.ownerColumn) expect(await listed(alice.client as TestServer)).toContain(id);
    expect((await alice.client.get(`${base}/${id}`)).status).toBe(200);
    expect(await listed(server)).toContain(id);
    expect((await server.get(`${base}/${id}`)).status).toBe(200);
  });
});

describe('tenant and owner defaults', () => {
  it('a tenant user creates into their own tenant whatever the body says, and cannot move records', async () => {
    const bot = await create(alice.client as TestServer, '/api/bots', { name: 'Mine', description: 'd', tenant: tenantB._id });
    expect(bot.tenant).toBe(tenantA._id);
    const moved = await alice.client.put(`/api/bots/${bot._id}`, { tenant: tenantB._id, name: 'Still mine' });
    expect(moved.body).toMatchObject({ tenant: tenantA._id, name: 'Still mine' });
    // Alice's role manages itself: she hires colleagues with her own role.
    await server.put(`/api/roles/${alice.role._id}`, { childRoles: [alice.role._id] });
    const user = await create(alice.client as TestServer, '/api/users', {
      name: 'Colleague', username: 'colleague', email: 'c@example.com', phone: '1', password: 'colleague-1', role: alice.role._id, tenant: tenantB._id,
    });
    expect(user.tenant._id).toBe(tenantA._id);
  });

  it('owner-scoped entities default the owner to the caller', async () => {
    const knowledge = await create(alice.client as TestServer, '/api/knowledge', { name: 'K', toolDescription: 't' });
    expect(knowledge.user._id).toBe(alice.user._id);
    const source = await create(bob.client as TestServer, '/api/knowledge-sources', { name: 'S', type: 'text', sourceText: 'x', text: 'x' });
    expect(source.user?._id ?? source.user).toBe(bob.user._id);
  });

  it('a platform user without a tenant sees every tenant', async () => {
    const names = (await server.get('/api/users?limit=100')).body.items.map((u: any) => u.username);
    expect(names).toEqual(expect.arrayContaining([alice.user.username, bob.user.username, 'admin']));
    expect((await alice.client.get('/api/users?limit=100')).body.items.map((u: any) => u.username)).not.toContain(bob.user.username);
  });
});

describe('lookups', () => {
  it('GET /api/permissions lists every permission string of the models', async () => {
    const res = await alice.client.get('/api/permissions');
    expect(res.status).toBe(200);
    const expected = [...new Set(Object.values(entities).flatMap((m) => m.permissions.all))].sort();
    expect(res.body).toEqual(expected);
    expect(res.body).toEqual(expect.arrayContaining(['userApiKey:myView', 'userApiKey:myCreate', 'role:permissions', 'setting:manage']));
  });

  it('GET /api/roles/all: everything with role:view, else only the caller\'s child roles', async () => {
    const all = (await server.get('/api/roles/all')).body;
    expect(all.map((r: any) => r.name)).toEqual(expect.arrayContaining(['Admin', 'User']));
    const user = all.find((r: any) => r.name === 'User');
    const delegate = await userWith(server, ['user:create'], { childRoles: [user._id] });
    expect((await delegate.client.get('/api/roles/all')).body.map((r: any) => r.name)).toEqual(['User']);
    const loner = await userWith(server, ['user:create']);
    expect((await loner.client.get('/api/roles/all')).body).toEqual([]);
    const viewer = await userWith(server, ['role:view']);
    expect((await viewer.client.get('/api/roles/all')).body.length).toBe((await server.get('/api/roles/all')).body.length);
  });

  it('GET /api/tenants/all: all for platform administrators, their own for tenant users', async () => {
    expect((await server.get('/api/tenants/all')).body.map((t: any) => t.name)).toEqual(expect.arrayContaining(['Tenant A', 'Tenant B']));
    expect((await alice.client.get('/api/tenants/all')).body.map((t: any) => t.name)).toEqual(['Tenant A']);
  });

  it('GET /api/users/search and the CSV-only export with comma filters', async () => {
    const found = await server.get(`/api/users/search?search=${alice.user.username}`);
    expect(found.body.map((u: any) => u.username)).toEqual([alice.user.username]);
    const json = await server.get('/api/users/export?format=JSON');
    expect(json.status).toBe(400);
    const res = await server.get(`/api/users/export?format=CSV&filters=${encodeURIComponent(`tenant,eq,${tenantA._id}|active,eq,true`)}`);
    expect(res.status).toBe(200);
    const csv = await (await fetch(server.baseUrl + res.body.url)).text();
    server.bodies.push(csv);
    expect(csv).toContain(alice.user.username);
    expect(csv).not.toContain(bob.user.username);
    expect(csv).not.toContain('password');
  });
});

describe('roles', () => {
  it('names are unique (409 on create and rename)', async () => {
    const first = await create(server, '/api/roles', { name: 'Unique name' });
    const dup = await server.post('/api/roles', { name: 'Unique name' });
    expect(dup.status).toBe(409);
    expect(dup.body.inputErrors).toEqual([{ field: 'name', reason: 'validation.unique' }]);
    const other = await create(server, '/api/roles', { name: 'Other name' });
    expect((await server.put(`/api/roles/${other._id}`, { name: 'Admin' })).status).toBe(409);
    expect((await server.put(`/api/roles/${first._id}`, { name: 'Unique name' })).status).toBe(200);
  });

  it('names must start with an uppercase letter', async () => {
    const res = await server.post('/api/roles', { name: 'lowercase' });
    expect(res.status).toBe(400);
    expect(res.body.inputErrors).toEqual([{ field: 'name', reason: 'validation.uppercase' }]);
    expect((await server.post('/api/roles', {})).body.inputErrors).toEqual([{ field: 'name', reason: 'validation.required' }]);
  });

  it('the seeded Admin role is read-only: no change, no delete (409 with a clear message)', async () => {
    const admin = (await server.get('/api/roles/all')).body.find((r: any) => r.name === 'Admin');
    expect(admin.readonly).toBe(true);
    for (const res of [await server.put(`/api/roles/${admin._id}`, { name: 'Hacked' }), await server.del(`/api/roles/${admin._id}`)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Role "Admin" is read-only and cannot be changed or deleted', i18nMessage: 'error.readonlyRole' });
    }
    // The Admin cannot be unlocked.
    expect((await server.put(`/api/roles/${admin._id}`, { readonly: false })).status).toBe(409);
    expect((await server.put(`/api/roles/${admin._id}`, { ...admin, readonly: false })).status).toBe(409);
    // Other roles may be made read-only (then nothing changes them) and unlocked again.
    const mine = await create(server, '/api/roles', { name: 'Mine', readonly: true });
    expect(mine.readonly).toBe(true);
    expect((await server.put(`/api/roles/${mine._id}`, { name: 'Changed' })).status).toBe(409);
    expect((await server.put(`/api/roles/${mine._id}`, { readonly: false, permissions: ['bot:view'] })).status).toBe(409);
    expect((await server.del(`/api/roles/${mine._id}`)).status).toBe(409);
    // Unlocking: readonly false, the rest as it was (a form sends the whole record).
    const unlocked = await server.put(`/api/roles/${mine._id}`, { ...mine, readonly: false });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body.readonly).toBe(false);
    expect((await server.put(`/api/roles/${mine._id}`, { name: 'Changed' })).body.name).toBe('Changed');
    const plain = await create(server, '/api/roles', { name: 'Plain' });
    expect(plain.readonly).toBe(false);
    expect((await server.put(`/api/roles/${plain._id}`, { readonly: true })).body.readonly).toBe(true);
    // GraphQL carries the field too.
    const gql = await server.post('/graphql', { query: `mutation { roleUpdate(id: "${plain._id}", data: { name: "Plain two" }) { _id } }` });
    expect(gql.body.errors[0].extensions.status).toBe(409);
  });

  it('a caller may only give users the managed (child) roles of their own role', async () => {
    const all = (await server.get('/api/roles/all')).body;
    const userRole = all.find((r: any) => r.name === 'User');
    const adminRole = all.find((r: any) => r.name === 'Admin');
    // The delegate holds what the User role grants (a caller only hands out roles within its own permissions).
    const delegate = await userWith(server, ['user:create', 'user:update', 'userApiKey:myView', 'userApiKey:myCreate'], { tenant: tenantA._id, childRoles: [userRole._id] });
    const body = { name: 'Hire', username: 'hire', email: 'hire@example.com', phone: '1', password: 'hire-pass-1' };
    const escalate = await delegate.client.post('/api/users', { ...body, role: adminRole._id });
    expect(escalate.status).toBe(403);
    const hired = await delegate.client.post('/api/users', { ...body, role: { _id: userRole._id } });
    expect(hired.status).toBe(201);
    expect((await delegate.client.put(`/api/users/${hired.body._id}`, { role: adminRole._id })).status).toBe(403);
    expect((await delegate.client.put(`/api/users/${hired.body._id}`, { name: 'Hired' })).status).toBe(200);
  });

  it('changing a role\'s permissions needs role:permissions', async () => {
    const editor = await userWith(server, ['role:update', 'role:create']);
    const role = await create(server, '/api/roles', { name: 'Target', permissions: [] });
    const res = await editor.client.put(`/api/roles/${role._id}`, { permissions: ['user:manage'] });
    expect(res.status).toBe(403);
    expect((await editor.client.put(`/api/roles/${role._id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await editor.client.post('/api/roles', { name: 'Sneaky', permissions: ['user:manage'] })).status).toBe(403);
  });
});
