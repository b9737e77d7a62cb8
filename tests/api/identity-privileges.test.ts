// Issue 16: a caller can never grant, create, change or act on an account or role holding a
// permission the caller does not hold; tenant-bound users never change global records
// (tenants, roles, settings). Each attack in several variants, over REST and GraphQL, with the
// data checked unchanged afterwards and the server still answering /api/health quickly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectNoLeaks, userWith, type TestUser } from './helpers/fixtures.ts';

let server: TestServer;
let adminRole: any;
let userRole: any;
let adminUser: any;
let tenantA: any;
let tenantB: any;

const USER_PERMS = ['userApiKey:myView', 'userApiKey:myCreate'];
let counter = 0;
const newUser = (role: string, extra: Record<string, unknown> = {}) => {
  counter += 1;
  const username = `victim${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: username, username, email: `${username}@example.com`, phone: '600', password: `pw-${username}-1`, role, ...extra };
};

async function graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.as({ token }).post('/graphql', { query, variables });
  return res.body as { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

/** The server still answers others during the attempts (latency goals live in tests/bench, not in tests). */
async function healthAnswers() {
  expect((await server.as(null).get('/api/health')).status).toBe(200);
}

async function usernames(): Promise<string[]> {
  return (await server.get('/api/users?limit=1000')).body.items.map((u: any) => u.username);
}

beforeAll(async () => {
  server = await startTestServer();
  const roles = (await server.get('/api/roles/all')).body;
  adminRole = roles.find((r: any) => r.name === 'Admin');
  userRole = roles.find((r: any) => r.name === 'User');
  adminUser = (await server.get('/api/users/find?search=admin')).body.find((u: any) => u.username === 'admin');
  tenantA = await create(server, '/api/tenants', { name: 'Priv A' });
  tenantB = await create(server, '/api/tenants', { name: 'Priv B' });
});
afterAll(async () => {
  expectNoLeaks(server);
  await server.close();
});

describe('assigning roles: an administrator any role, anyone else exactly the roles its role manages', () => {
  it('user:create + role:view cannot create an Admin (REST, GraphQL, populated ref, id object)', async () => {
    const hr = await userWith(server, ['user:create', 'role:view', ...USER_PERMS], { childRoles: [userRole._id] });
    const before = await usernames();
    for (const role of [adminRole._id, { _id: adminRole._id }, { id: adminRole._id, name: 'User' }]) {
      const res = await hr.client.post('/api/users', newUser(role as any));
      expect(res.status, JSON.stringify(role)).toBe(403);
      expect(res.body.i18nMessage).toBe('error.forbidden');
    }
    const body = newUser(adminRole._id);
    const gql = await graphql(hr.token, 'mutation($d: UserInput!) { userCreate(data: $d) { _id } }', { d: body });
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    // Forty attempts at once while /api/health keeps answering within 300 ms.
    const burst = Promise.all(Array.from({ length: 40 }, () => hr.client.post('/api/users', newUser(adminRole._id))));
    await healthAnswers();
    expect((await burst).every((r) => r.status === 403)).toBe(true);
    expect(await usernames()).toEqual(before);
    // A role its role manages is fine.
    expect((await hr.client.post('/api/users', newUser(userRole._id))).status).toBe(201);
    await healthAnswers();
  });

  it('a role its role does not manage cannot be assigned, on create or update, even one within the caller\'s permissions', async () => {
    const almost = await create(server, '/api/roles', { name: 'Almost', permissions: ['user:create', 'user:update', 'role:view', 'bot:view'] });
    const none = await create(server, '/api/roles', { name: 'Nothing', permissions: [] });
    const smaller = await create(server, '/api/roles', { name: 'Smaller', permissions: ['role:view'] });
    const hr = await userWith(server, ['user:create', 'user:update', 'role:view'], { childRoles: [none._id] });
    expect((await hr.client.post('/api/users', newUser(smaller._id))).status).toBe(403);
    expect((await hr.client.post('/api/users', newUser(almost._id))).status).toBe(403);
    const hired = await create(hr.client as TestServer, '/api/users', newUser(none._id));
    expect((await hr.client.put(`/api/users/${hired._id}`, { role: almost._id })).status).toBe(403);
    expect((await hr.client.put(`/api/users/${hired._id}`, { role: adminRole._id })).status).toBe(403);
    const gql = await graphql(hr.token, `mutation { userUpdate(id: "${hired._id}", data: { role: "${adminRole._id}" }) { _id } }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    expect((await server.get(`/api/users/${hired._id}`)).body.role._id).toBe(none._id);
    // The caller cannot promote itself either.
    expect((await hr.client.put(`/api/users/${hr.user._id}`, { role: adminRole._id })).status).toBe(403);
    expect((await server.get(`/api/users/${hr.user._id}`)).body.role._id).toBe(hr.role._id);
  });

  it('the import path (entity service prepareInsert) runs the same rule', async () => {
    const hr = await userWith(server, ['user:create', 'role:view', ...USER_PERMS], { childRoles: [userRole._id] });
    const context = { userId: hr.user._id, tenantId: null, roleId: hr.role._id, permissions: hr.role.permissions };
    const service = server.forja.service;
    await expect(service.prepareInsert(service.definition('user'), context, newUser(adminRole._id))).rejects.toMatchObject({ statusCode: 403 });
    await expect(service.prepareInsert(service.definition('role'), context, { name: 'Imported', permissions: ['*'] })).rejects.toMatchObject({ statusCode: 403 });
    const ok = await service.prepareInsert(service.definition('user'), context, newUser(userRole._id));
    expect(ok.ok).toBe(true);
  });

  it('a manager of Visor and Gestor assigns exactly those, though they hold permissions it does not, and acts on their users', async () => {
    const visor = await create(server, '/api/roles', { name: 'Visor', permissions: ['bot:view', 'conversation:view'] });
    const gestor = await create(server, '/api/roles', { name: 'Gestor', permissions: ['bot:manage', 'knowledge:manage'] });
    const other = await create(server, '/api/roles', { name: 'Otro', permissions: [] });
    const manager = await userWith(server, ['user:manage', 'role:view'], { childRoles: [visor._id, gestor._id] });
    const offered = (await manager.client.get('/api/roles/assignable')).body.map((r: any) => r.name).sort();
    expect(offered).toEqual(['Gestor', 'Visor']);
    const hired = await create(manager.client as TestServer, '/api/users', newUser(visor._id));
    expect((await manager.client.post('/api/users', newUser(gestor._id))).status).toBe(201);
    for (const role of [adminRole._id, userRole._id, other._id, manager.role._id]) expect((await manager.client.post('/api/users', newUser(role))).status, role).toBe(403);
    // Its Visor user it may edit, move to Gestor, and delete; not promote to a role it does not manage.
    expect((await manager.client.put(`/api/users/${hired._id}`, { name: 'Renamed', role: gestor._id })).status).toBe(200);
    expect((await manager.client.put(`/api/users/${hired._id}`, { role: adminRole._id })).status).toBe(403);
    expect((await manager.client.put(`/api/users/${hired._id}`, { role: other._id })).status).toBe(403);
    expect((await manager.client.del(`/api/users/${hired._id}`)).status).toBeLessThan(300);
  });
});

describe('editing roles: never beyond the caller\'s own permissions', () => {
  it('role:update cannot add Admin to its own childRoles, then assign it (REST and GraphQL)', async () => {
    const delegate = await userWith(server, ['role:update', 'user:create', ...USER_PERMS]);
    const add = await delegate.client.put(`/api/roles/${delegate.role._id}`, { childRoles: [adminRole._id] });
    expect(add.status).toBe(403);
    const gql = await graphql(delegate.token, `mutation { roleUpdate(id: "${delegate.role._id}", data: { childRoles: ["${adminRole._id}"] }) { _id } }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    expect((await server.get(`/api/roles/${delegate.role._id}`)).body.childRoles).toEqual([]);
    expect((await delegate.client.post('/api/users', newUser(adminRole._id))).status).toBe(403);
    // Even when an administrator put Admin among its children, assigning it stays refused.
    await server.put(`/api/roles/${delegate.role._id}`, { childRoles: [adminRole._id, userRole._id] });
    expect((await delegate.client.post('/api/users', newUser(adminRole._id))).status).toBe(403);
    expect((await delegate.client.post('/api/users', newUser(userRole._id))).status).toBe(201);
    // Renaming its role while re-sending the children it already has is fine; adding another one above it is not.
    expect((await delegate.client.put(`/api/roles/${delegate.role._id}`, { name: 'Delegate renamed', childRoles: [adminRole._id, userRole._id] })).status).toBe(200);
    const above = await create(server, '/api/roles', { name: 'Above delegate', permissions: ['bot:view'] });
    expect((await delegate.client.put(`/api/roles/${delegate.role._id}`, { childRoles: [adminRole._id, userRole._id, above._id] })).status).toBe(403);
  });

  it('role:permissions cannot grant a permission the caller lacks, to its own role, another role, or a new one', async () => {
    const editor = await userWith(server, ['role:view', 'role:create', 'role:update', 'role:permissions', 'bot:view']);
    const target = await create(server, '/api/roles', { name: 'Target role', permissions: ['bot:view'] });
    for (const permissions of [['bot:view', 'bot:update'], ['*'], ['user:manage'], [...editor.role.permissions, 'setting:manage']]) {
      expect((await editor.client.put(`/api/roles/${editor.role._id}`, { permissions })).status, permissions.join()).toBe(403);
      expect((await editor.client.put(`/api/roles/${target._id}`, { permissions })).status, permissions.join()).toBe(403);
      expect((await editor.client.post('/api/roles', { name: 'Sneaky', permissions })).status, permissions.join()).toBe(403);
    }
    const gql = await graphql(editor.token, `mutation { roleCreate(data: { name: "Gql sneaky", permissions: ["*"] }) { _id } }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    expect((await server.get(`/api/roles/${editor.role._id}`)).body.permissions).toEqual(editor.role.permissions);
    expect((await server.get(`/api/roles/${target._id}`)).body.permissions).toEqual(['bot:view']);
    expect((await server.get('/api/roles/find?search=Sneaky')).body).toEqual([]);
    // Within its own permissions it may.
    expect((await editor.client.put(`/api/roles/${target._id}`, { permissions: ['bot:view', 'role:view'] })).status).toBe(200);
    expect((await editor.client.post('/api/roles', { name: 'Small', permissions: ['bot:view'] })).status).toBe(201);
  });

  it('a role above the caller cannot be renamed, stripped or deleted by it', async () => {
    const editor = await userWith(server, ['role:view', 'role:update', 'role:delete', 'role:permissions']);
    const strong = await create(server, '/api/roles', { name: 'Strong', permissions: ['user:manage', 'role:view'] });
    expect((await editor.client.put(`/api/roles/${strong._id}`, { name: 'Weak' })).status).toBe(403);
    expect((await editor.client.put(`/api/roles/${strong._id}`, { permissions: [] })).status).toBe(403);
    expect((await editor.client.del(`/api/roles/${strong._id}`)).status).toBe(403);
    expect((await server.get(`/api/roles/${strong._id}`)).body).toMatchObject({ name: 'Strong', permissions: ['user:manage', 'role:view'] });
  });

  it('child-role chains do not escalate: a child that may hand out Admin is itself only as strong as its permissions', async () => {
    // Middle holds user:create and may hand out Admin (set by the administrator); top may hand out Middle.
    const middle = await create(server, '/api/roles', { name: 'Middle', permissions: ['user:create', ...USER_PERMS], childRoles: [adminRole._id] });
    const top = await userWith(server, ['user:create', ...USER_PERMS], { childRoles: [middle._id] });
    const hired = await create(top.client as TestServer, '/api/users', newUser(middle._id));
    const password = `pw-${hired.username}-1`;
    const hiredClient = server.as({ token: await server.login(hired.username, password) });
    expect((await hiredClient.post('/api/users', newUser(adminRole._id))).status).toBe(403);
    expect((await top.client.post('/api/users', newUser(adminRole._id))).status).toBe(403);
  });
});

describe('acting on users: only users within the caller\'s own permissions', () => {
  let support: TestUser;
  beforeAll(async () => {
    support = await userWith(server, ['user:view', 'user:update', 'user:delete']);
  });

  it('user:update cannot change the Admin\'s password, e-mail, active flag or role (REST, GraphQL, password route)', async () => {
    const attempts = [
      { password: 'taken-over-1' }, { email: 'attacker@example.com' }, { active: false }, { role: userRole._id }, { name: 'Pwned', username: 'admin2' },
    ];
    for (const body of attempts) {
      const res = await support.client.put(`/api/users/${adminUser._id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    const gql = await graphql(support.token, `mutation { userUpdate(id: "${adminUser._id}", data: { password: "taken-over-2" }) { _id } }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    expect((await support.client.post(`/api/users/password/change/${adminUser._id}`, { newPassword: 'taken-over-3' })).status).toBe(403);
    expect((await support.client.del(`/api/users/${adminUser._id}`)).status).toBe(403);
    const gqlDelete = await graphql(support.token, `mutation { userDelete(id: "${adminUser._id}") }`);
    expect(gqlDelete.errors?.[0]?.extensions?.status).toBe(403);
    // Nothing changed: the admin signs in with the old password; its record is intact.
    expect(await server.login('admin', server.admin.password)).toMatch(/^ey/);
    expect((await server.get(`/api/users/${adminUser._id}`)).body).toMatchObject({ username: 'admin', active: true, email: adminUser.email, role: { _id: adminRole._id } });
    await healthAnswers();
  });

  it('nor any user holding a permission the caller lacks; peers and lesser users are fine', async () => {
    const stronger = await userWith(server, ['user:view', 'user:update', 'user:delete', 'bot:view']);
    const peer = await userWith(server, support.role.permissions);
    const lesser = await userWith(server, ['user:view']);
    expect((await support.client.put(`/api/users/${stronger.user._id}`, { active: false })).status).toBe(403);
    expect((await support.client.post(`/api/users/password/change/${stronger.user._id}`, { newPassword: 'another-pass-1' })).status).toBe(403);
    expect((await support.client.del(`/api/users/${stronger.user._id}`)).status).toBe(403);
    expect((await stronger.client.get('/api/auth/me')).status).toBe(200);
    expect((await support.client.put(`/api/users/${peer.user._id}`, { name: 'Peer renamed' })).status).toBe(200);
    expect((await support.client.post(`/api/users/password/change/${lesser.user._id}`, { newPassword: 'lesser-new-1' })).status).toBe(200);
    expect((await support.client.del(`/api/users/${lesser.user._id}`)).status).toBe(204);
  });

  it('inside a tenant, a tenant administrator cannot reset the password of a more privileged user of that tenant', async () => {
    const tenantAdmin = await userWith(server, ['user:view', 'user:update', ...USER_PERMS], { tenant: tenantA._id });
    const boss = await userWith(server, ['user:view', 'user:update', 'bot:manage', ...USER_PERMS], { tenant: tenantA._id });
    const clerk = await userWith(server, USER_PERMS, { tenant: tenantA._id });
    expect((await tenantAdmin.client.post(`/api/users/password/change/${boss.user._id}`, { newPassword: 'boss-taken-1' })).status).toBe(403);
    expect((await tenantAdmin.client.put(`/api/users/${boss.user._id}`, { password: 'boss-taken-2' })).status).toBe(403);
    expect((await tenantAdmin.client.put(`/api/users/${boss.user._id}`, { email: 'mine@example.com' })).status).toBe(403);
    await expect(server.login(boss.user.username, 'boss-taken-1')).rejects.toThrow('401');
    expect(await server.login(boss.user.username, `pw-${boss.user.username}-123`)).toMatch(/^ey/);
    expect((await tenantAdmin.client.post(`/api/users/password/change/${clerk.user._id}`, { newPassword: 'clerk-new-1' })).status).toBe(200);
  });
});

describe('global records: tenants, roles and settings belong to platform administrators', () => {
  it('a tenant user with tenant:manage sees only its own tenant and changes none (REST and GraphQL)', async () => {
    const tm = await userWith(server, ['tenant:manage'], { tenant: tenantA._id });
    const list = (await tm.client.get('/api/tenants?limit=100')).body;
    expect(list.items.map((t: any) => t.name)).toEqual(['Priv A']);
    expect(list.total).toBe(1);
    expect((await tm.client.get('/api/tenants/find?limit=100')).body.map((t: any) => t._id)).toEqual([tenantA._id]);
    expect((await tm.client.get(`/api/tenants/${tenantB._id}`)).status).toBe(404);
    expect((await tm.client.get(`/api/tenants/ids/${tenantA._id},${tenantB._id}`)).body.map((t: any) => t._id)).toEqual([tenantA._id]);
    expect((await tm.client.get(`/api/tenants/${tenantA._id}`)).status).toBe(200);
    expect((await tm.client.put(`/api/tenants/${tenantB._id}`, { name: 'Renamed B' })).status).toBe(404);
    const own = await tm.client.put(`/api/tenants/${tenantA._id}`, { name: 'Renamed A' });
    expect(own.status).toBe(403);
    expect(own.body.i18nMessage).toBe('error.platformOnly');
    expect((await tm.client.post('/api/tenants', { name: 'New one' })).status).toBe(403);
    expect((await tm.client.del(`/api/tenants/${tenantB._id}`)).status).toBe(404);
    expect((await tm.client.del(`/api/tenants/${tenantA._id}`)).status).toBe(403);
    const gqlList = await graphql(tm.token, '{ tenantFind(limit: 100) { _id name } }');
    expect(gqlList.data?.tenantFind.map((t: any) => t._id)).toEqual([tenantA._id]);
    const gqlRename = await graphql(tm.token, `mutation { tenantUpdate(id: "${tenantA._id}", data: { name: "Gql renamed" }) { _id } }`);
    expect(gqlRename.errors?.[0]?.extensions?.status).toBe(403);
    expect((await server.get('/api/tenants?limit=100')).body.items.map((t: any) => t.name)).toEqual(expect.arrayContaining(['Priv A', 'Priv B']));
    expect((await server.get('/api/tenants/find?search=New%20one')).body).toEqual([]);
  });

  it('a tenant user with role:* cannot create, edit or delete roles (global: shared by every tenant), but may read them', async () => {
    const rm = await userWith(server, ['role:manage', 'role:permissions', ...USER_PERMS], { tenant: tenantA._id });
    const spare = await create(server, '/api/roles', { name: 'Spare', permissions: [] });
    expect((await rm.client.put(`/api/roles/${userRole._id}`, { permissions: [] })).status).toBe(403);
    expect((await rm.client.put(`/api/roles/${spare._id}`, { name: 'Spare renamed' })).status).toBe(403);
    expect((await rm.client.put(`/api/roles/${rm.role._id}`, { name: 'Own renamed' })).status).toBe(403);
    expect((await rm.client.post('/api/roles', { name: 'Tenant role', permissions: [] })).status).toBe(403);
    expect((await rm.client.del(`/api/roles/${spare._id}`)).status).toBe(403);
    const gql = await graphql(rm.token, `mutation { roleUpdate(id: "${userRole._id}", data: { name: "Hijacked" }) { _id } }`);
    expect(gql.errors?.[0]?.extensions?.status).toBe(403);
    expect((await server.get(`/api/roles/${userRole._id}`)).body).toMatchObject({ name: 'User', permissions: USER_PERMS });
    expect((await rm.client.get('/api/roles?limit=100')).status).toBe(200);
  });

  it('a tenant user with setting:manage cannot change platform settings (e.g. the public URL of recovery links)', async () => {
    const sm = await userWith(server, ['setting:manage'], { tenant: tenantA._id });
    for (const [key, value] of [['app.publicUrl', 'https://attacker.example'], ['auth.registrationEnabled', true], ['smtp.host', 'evil.example'], ['auth.defaultRole', 'Admin']]) {
      const res = await sm.client.patch(`/api/settings/${key}`, { value });
      expect(res.status, String(key)).toBe(403);
      expect(res.body.i18nMessage).toBe('error.platformOnly');
    }
    expect((await server.get('/api/settings/app.publicUrl')).body.value).toBe('');
    expect((await server.get('/api/settings/auth.defaultRole')).body.value).toBe('User');
    expect((await sm.client.get('/api/settings/app.publicUrl')).status).toBe(200);
    // A platform user with the same permission may change an ordinary setting, but not a
    // security-relevant one (identity-sensitive-settings.test.ts): that needs every permission.
    const platform = await userWith(server, ['setting:manage']);
    expect((await platform.client.patch('/api/settings/llm.model', { value: 'forja-test' })).status).toBe(200);
    expect((await platform.client.patch('/api/settings/app.publicUrl', { value: 'https://forja.example' })).body.i18nMessage).toBe('error.settingRequiresAdmin');
    expect((await server.patch('/api/settings/app.publicUrl', { value: 'https://forja.example' })).status).toBe(200);
    await server.patch('/api/settings/app.publicUrl', { value: '' });
    await server.patch('/api/settings/llm.model', { value: '' });
  });
});
