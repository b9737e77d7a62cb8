// Security review, defects 2 and 3: the last platform administrator (an active user without a
// tenant holding every permission) can neither be moved into a tenant nor be replaced by a
// tenant user holding Admin; and the checks run under one identity write lock, so two
// administrators removing each other at once, or a role deleted while a user is created with
// it, cannot both pass.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type ApiClient, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, expectNoLeaks } from './helpers/fixtures.ts';

let server: TestServer;
afterEach(async () => {
  if (server) {
    expectNoLeaks(server);
    await server.close();
  }
});

let counter = 0;
function userBody(role: string, extra: Record<string, unknown> = {}) {
  counter += 1;
  const username = `la${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: username, username, email: `${username}@example.com`, phone: '600', password: `pw-${username}-1`, role, ...extra };
}

async function setup() {
  server = await startTestServer();
  const roles = (await server.get('/api/roles/all')).body as any[];
  const adminRole = roles.find((r) => r.name === 'Admin');
  const userRole = roles.find((r) => r.name === 'User');
  const admin = (await server.get('/api/users/find?search=admin')).body.find((u: any) => u.username === 'admin');
  const tenant = await create(server, '/api/tenants', { name: `T ${counter}` });
  return { adminRole, userRole, admin, tenant };
}

/** A new user with `role` (and `tenant`), signed in. */
async function signedIn(creator: ApiClient, role: string, extra: Record<string, unknown> = {}) {
  const body = userBody(role, extra);
  const user = await create(creator as TestServer, '/api/users', body);
  const token = await server.login(body.username, body.password);
  return { user, token, client: server.as({ token }) };
}

async function graphql(client: ApiClient, query: string) {
  return (await client.post('/graphql', { query })).body as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
}

function expectLastAdmin(res: { status: number; body: any }, label = ''): void {
  expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(409);
  expectErrorShape(res.body);
  expect(res.body.i18nMessage, label).toBe('error.lastAdministrator');
}

function expectGraphqlLastAdmin(body: Awaited<ReturnType<typeof graphql>>, label = ''): void {
  expect(body.errors?.[0]?.extensions?.status, `${label} ${JSON.stringify(body)}`).toBe(409);
  expect(body.errors?.[0]?.extensions?.i18nMessage ?? body.errors?.[0]?.message, label).toMatch(/lastAdministrator|no active administrator/);
}

describe('the last platform administrator', () => {
  it('cannot move itself (or be moved) into a tenant: REST and GraphQL, alone or with other fields', async () => {
    const { admin, tenant, adminRole } = await setup();
    const attempts = [
      { tenant: tenant._id },
      { tenant: { _id: tenant._id } },
      { tenant: tenant._id, name: 'Renamed admin' },
    ];
    for (const body of attempts) expectLastAdmin(await server.put(`/api/users/${admin._id}`, body), JSON.stringify(body));
    expectGraphqlLastAdmin(await graphql(server, `mutation { userUpdate(id: "${admin._id}", data: { tenant: "${tenant._id}" }) { _id } }`), 'GraphQL');
    const stored = (await server.get(`/api/users/${admin._id}`)).body;
    expect(stored.tenant ?? null).toBeNull();
    expect(stored.name).toBe(admin.name);
    // Still a platform administrator: global records stay writable, the tenant removable.
    expect((await server.post('/api/roles', { name: 'Still possible', permissions: [] })).status).toBe(201);
    expect((await server.del(`/api/tenants/${tenant._id}`)).status).toBeLessThan(300);
    // With a second platform administrator it may.
    const second = await signedIn(server, adminRole._id);
    const other = await create(server, '/api/tenants', { name: 'Other' });
    expect((await second.client.put(`/api/users/${admin._id}`, { tenant: other._id })).status).toBe(200);
    expectLastAdmin(await second.client.put(`/api/users/${second.user._id}`, { tenant: other._id }), 'now the last one');
  });

  it('a tenant user holding Admin does not count: delete, deactivate, demote and tenant moves of the platform admin are refused', async () => {
    const { admin, adminRole, userRole, tenant } = await setup();
    const tenantAdmin = await signedIn(server, adminRole._id, { tenant: tenant._id });
    // A full role other than the seeded Admin, held in a tenant, does not count either.
    const all = (await server.get('/api/permissions')).body as string[];
    const fullRole = await create(server, '/api/roles', { name: 'Everything', permissions: all });
    await signedIn(server, fullRole._id, { tenant: tenant._id });
    expectLastAdmin(await server.del(`/api/users/${admin._id}`), 'delete');
    expectLastAdmin(await server.put(`/api/users/${admin._id}`, { active: false }), 'deactivate');
    expectLastAdmin(await server.put(`/api/users/${admin._id}`, { role: userRole._id }), 'demote');
    expectGraphqlLastAdmin(await graphql(server, `mutation { userDelete(id: "${admin._id}") }`), 'GraphQL delete');
    expectGraphqlLastAdmin(await graphql(server, `mutation { userUpdate(id: "${admin._id}", data: { active: false }) { _id } }`), 'GraphQL deactivate');
    // The tenant admin cannot reach the platform admin at all (another tenant: 404).
    const res = await tenantAdmin.client.del(`/api/users/${admin._id}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const stored = (await server.get(`/api/users/${admin._id}`)).body;
    expect(stored).toMatchObject({ active: true, role: { _id: adminRole._id } });
    expect(stored.tenant ?? null).toBeNull();
    // Stripping the seeded Admin is refused anyway (read-only); stripping "Everything" is fine:
    // its only holder is a tenant user.
    expect((await server.put(`/api/roles/${fullRole._id}`, { permissions: all.slice(1) })).status).toBe(200);
  });
});

describe('identity writes are serialised: check and write are one step', () => {
  it('two platform administrators removing each other at once: exactly one wins (delete, deactivate, demote, GraphQL)', async () => {
    const { admin, adminRole, userRole } = await setup();
    // Two fresh administrators; the seeded one steps down so the pair are the only ones.
    let a = await signedIn(server, adminRole._id);
    await a.client.put(`/api/users/${admin._id}`, { active: false });
    const remove: ((by: ApiClient, id: string) => Promise<{ status: number; body: any }>)[] = [
      (by, id) => by.del(`/api/users/${id}`),
      (by, id) => by.put(`/api/users/${id}`, { active: false }),
      (by, id) => by.put(`/api/users/${id}`, { role: userRole._id }),
      async (by, id) => {
        const body = await graphql(by, `mutation { userDelete(id: "${id}") }`);
        return body.errors ? { status: body.errors[0]!.extensions?.status ?? 500, body: body.errors[0] } : { status: 200, body };
      },
    ];
    for (const [round, removeOther] of [...remove, ...remove].entries()) {
      const b = await signedIn(a.client, adminRole._id);
      const [ab, ba] = await Promise.all([removeOther(a.client, b.user._id), removeOther(b.client, a.user._id)]);
      const statuses = [ab.status, ba.status];
      expect(statuses.filter((s) => s < 300), `round ${round}: ${JSON.stringify([ab.body, ba.body])}`).toHaveLength(1);
      const loser = ab.status < 300 ? ba : ab;
      // 409 (the check saw the other's write), or 401/403 when the winner's write landed before
      // the loser's request was even authorised (account gone, deactivated or demoted).
      expect([401, 403, 409], JSON.stringify(loser.body)).toContain(loser.status);
      expectErrorShape(loser.body);
      const survivor = ab.status < 300 ? a : b;
      const me = (await survivor.client.get('/api/auth/me')).body;
      expect(me.role.name).toBe('Admin');
      expect(me.tenant).toBeNull();
      a = survivor;
    }
    // Exactly one active platform administrator is left: the survivor.
    const users = (await a.client.get('/api/users?limit=1000')).body.items as any[];
    const admins = users.filter((u) => u.active !== false && !u.tenant && (u.role?._id ?? u.role) === adminRole._id);
    expect(admins.map((u) => u._id)).toEqual([a.user._id]);
  });

  it('at the service level, with both callers already authorised: two deletes, two deactivations, a delete and a demotion', async () => {
    const { admin, adminRole, userRole } = await setup();
    const { service } = server.forja;
    const ctx = (user: any) => ({ userId: String(user._id), tenantId: null, roleId: String(adminRole._id), permissions: adminRole.permissions as string[] });
    let a = (await signedIn(server, adminRole._id)).user;
    await server.put(`/api/users/${admin._id}`, { active: false });
    const remove: ((by: any, target: any) => Promise<unknown>)[] = [
      (by, target) => service.delete('user', ctx(by), String(target._id)),
      (by, target) => service.update('user', ctx(by), String(target._id), { active: false }),
      (by, target) => service.update('user', ctx(by), String(target._id), { role: userRole._id }),
    ];
    for (const [round, [first, second]] of [[remove[0], remove[0]], [remove[1], remove[1]], [remove[0], remove[2]], [remove[2], remove[1]]].entries()) {
      const b = (await signedIn(server.as({ token: await server.signToken({ sub: String(a._id) }) }), adminRole._id)).user;
      const results = await Promise.allSettled([first!(a, b), second!(b, a)]);
      expect(results.filter((r) => r.status === 'fulfilled'), `round ${round}`).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason.statusCode ?? refused.reason.status, String(refused.reason)).toBe(409);
      a = results[0]!.status === 'fulfilled' ? a : b;
    }
  });

  it('deleting a role while users are created with it: never a user pointing at a deleted role (REST and GraphQL)', async () => {
    await setup();
    for (let round = 0; round < 8; round += 1) {
      const role = await create(server, '/api/roles', { name: `Racing ${round}`, permissions: [] });
      const body = userBody(role._id);
      const createUser = round % 2 === 0
        ? server.post('/api/users', body)
        : graphql(server, `mutation { userCreate(data: { name: "${body.name}", username: "${body.username}", email: "${body.email}", phone: "600", password: "${body.password}", role: "${role._id}" }) { _id } }`)
          .then((r) => (r.errors ? { status: r.errors[0]!.extensions?.status ?? 500, body: r.errors[0] } : { status: 201, body: r.data }));
      const [deleted, created] = await Promise.all([server.del(`/api/roles/${role._id}`), createUser]);
      expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(500);
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(500);
      // One or the other, never both.
      expect([deleted.status < 300, created.status < 300].filter(Boolean), `round ${round}`).toHaveLength(1);
      if (deleted.status >= 300) expect(deleted.body.i18nMessage).toBe('error.roleInUse');
    }
    const roleIds = new Set(((await server.get('/api/roles/all')).body as any[]).map((r) => r._id));
    const users = (await server.get('/api/users?limit=1000')).body.items as any[];
    expect(users.filter((u) => u.role && !roleIds.has(u.role._id ?? u.role))).toEqual([]);
  });
});
