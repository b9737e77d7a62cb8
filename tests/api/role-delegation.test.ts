// Issue 27 item 3: one rule for what a role may do (contract/permissions/role-delegation.ts), read
// by the server and by the console. Each seeded and custom role signs in and is walked through
// every role: what the console offers (the user form's role picker reads GET
// /api/roles/assignable; the role rows' Edit comes from mayChangeRole, the console's call) is
// compared with what the server then does (POST /api/users, PUT /api/roles/:id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create } from './helpers/fixtures.ts';
import { PermissionCoverage } from '../../contract/permissions/permission-coverage.ts';
import { mayActOnUser, mayAddChildRole, mayChangeRole, type Delegator } from '../../contract/permissions/role-delegation.ts';
import { mayDo } from '../../contract/permissions/entity-access.ts';
import { entities } from '../../src/generated/entities.ts';
import { menuGroups } from '../../src/generated/menu.ts';
import { visibleMenu } from '../../src/home/visible-menu.ts';
import { featureTiles } from '../../src/home/feature-tiles.ts';
import { crudRouteAccess } from '../../src/app/crud-route-access.ts';
import { entityAccess } from '../../src/generated/entity-access.ts';

let server: TestServer;
const coverage = new PermissionCoverage(entities);
let counter = 0;

interface Role { _id: string; name: string; permissions: string[]; readonly: boolean; childRoles?: Array<string | { _id: string }> }

async function signInAs(role: Role) {
  counter += 1;
  const username = `walker${counter}-${Math.random().toString(36).slice(2, 7)}`;
  const password = `pw-${username}-1`;
  await create(server, '/api/users', { name: username, username, email: `${username}@example.com`, phone: '600', password, role: role._id });
  return server.as({ token: await server.login(username, password) });
}

const newUser = (role: string) => {
  counter += 1;
  const username = `hire${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: username, username, email: `${username}@example.com`, phone: '600', password: `pw-${username}-1`, role };
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('the console offers exactly what the server allows, for every seeded and custom role', () => {
  it('role pickers and role rows', { timeout: 120_000 }, async () => {
    const seeded = (await server.get('/api/roles/all')).body as Role[];
    const admin = seeded.find((r) => r.name === 'Admin')!;
    const user = seeded.find((r) => r.name === 'User')!;
    const visor = await create<Role>(server, '/api/roles', { name: 'Visor', permissions: ['bot:view', 'conversation:view'] });
    const gestor = await create<Role>(server, '/api/roles', { name: 'Gestor', permissions: ['bot:manage', 'knowledge:manage'] });
    await create<Role>(server, '/api/roles', { name: 'Jefe de usuarios', permissions: ['user:manage', 'role:view'], childRoles: [visor._id, gestor._id] });
    await create<Role>(server, '/api/roles', { name: 'Selección', permissions: ['user:create', 'userApiKey:myView', 'userApiKey:myCreate'], childRoles: [user._id, admin._id] });
    await create<Role>(server, '/api/roles', { name: 'Editor de roles', permissions: ['role:view', 'role:update', 'bot:manage', 'knowledge:manage', 'bot:view', 'conversation:view'] });
    await create<Role>(server, '/api/roles', { name: 'Bloqueado', permissions: ['bot:view'], readonly: true });
    const roles = (await server.get('/api/roles/all')).body as Role[];
    expect(roles.length).toBeGreaterThanOrEqual(8);

    const walked: string[] = [];
    for (const caller of roles) {
      const client = await signInAs(caller);
      const offered = new Set(((await client.get('/api/roles/assignable')).body as Role[]).map((r) => r.name));
      const mayCreateUsers = ['user:create', 'user:manage'].some((p) => coverage.grants(caller.permissions, p));
      for (const target of roles) {
        const res = await client.post('/api/users', newUser(target._id));
        const label = `${caller.name} assigns ${target.name}`;
        if (mayCreateUsers && offered.has(target.name)) expect(res.status, label).toBe(201);
        else expect(res.status, `${label}: ${res.text}`).toBe(403);
      }
      // Role rows: Edit is offered when the caller may update roles and mayChangeRole allows it.
      const mayUpdateRoles = coverage.grants(caller.permissions, 'role:update');
      for (const target of roles) {
        if (target.readonly) continue; // read-only roles: 409 for any change but the unlock (role form)
        const offeredEdit = mayUpdateRoles && mayChangeRole(coverage, caller, target).ok;
        const res = await client.put(`/api/roles/${target._id}`, { name: target.name });
        expect(res.status === 200, `${caller.name} edits ${target.name}: ${res.status} ${res.text}`).toBe(offeredEdit);
      }
      walked.push(`${caller.name}: ${[...offered].sort().join(', ')}`);
    }
    // The rule's cases, as offered.
    expect(walked).toEqual(expect.arrayContaining([
      `Admin: ${roles.map((r) => r.name).sort().join(', ')}`,
      'Jefe de usuarios: Gestor, Visor',
      'Selección: User',
      'User: ',
    ]));
  });

  // The console's decisions for a role, from the functions the console itself calls: the gallery
  // (visibleMenu), each list page (crudRouteAccess), its Crear/Editar/Eliminar (mayDo), the bot
  // row's Analítica (its manifest permission, as crud-page filters row actions), user rows
  // (mayActOnUser, user-row-rules.ts) and the child-role picker (mayAddChildRole, role-rules.ts).
  it('pages, entity actions, Analítica, user rows and child-role pickers', { timeout: 240_000 }, async () => {
    const seeded = (await server.get('/api/roles/all')).body as Role[];
    const admin = seeded.find((r) => r.name === 'Admin')!;
    const customs = [
      { name: 'Solo bots', permissions: ['bot:manage'] },
      { name: 'Analista', permissions: ['bot:view', 'bottrace:view'] },
      { name: 'Lector', permissions: ['bot:view', 'contact:view', 'conversation:view', 'knowledge:view', 'tenant:view', 'role:view'] },
      { name: 'Jefe', permissions: ['user:manage', 'role:view', 'role:update', 'bot:manage'] },
      { name: 'Propio', permissions: ['userApiKey:myView', 'userApiKey:myCreate', 'contact:create'] },
    ];
    for (const custom of customs) await create<Role>(server, '/api/roles', custom);
    const jefe = ((await server.get('/api/roles/all')).body as Role[]).find((r) => r.name === 'Jefe')!;
    const soloBots = ((await server.get('/api/roles/all')).body as Role[]).find((r) => r.name === 'Solo bots')!;
    await server.put(`/api/roles/${jefe._id}`, { name: 'Jefe', childRoles: [soloBots._id] });
    const roles = ((await server.get('/api/roles/all')).body as Role[]).filter((r) => r.name === admin.name || r.name === 'User' || customs.some((c) => c.name === r.name));
    expect(roles).toHaveLength(customs.length + 2);
    // One user per role, for the user rows.
    const targets = new Map<string, string>();
    for (const role of roles) targets.set(role._id, (await create<{ _id: string }>(server, '/api/users', newUser(role._id)))._id);
    const idsOf = (role: Role) => (role.childRoles ?? []).map((child) => (typeof child === 'string' ? child : child._id));
    const mismatches: string[] = [];
    const check = (label: string, offered: boolean, allowed: boolean) => {
      if (offered !== allowed) mismatches.push(`${label}: console ${offered ? 'offers' : 'hides'} it, server ${allowed ? 'allows' : 'refuses'}`);
    };

    for (const caller of roles) {
      const client = await signInAs(caller);
      const held = caller.permissions;
      const can = (permission: string) => held.includes(permission);
      const who = caller.name;
      // Pages: every tile the gallery (and sidebar) shows opens a list the server serves.
      const tiles = visibleMenu(menuGroups, can, entities, featureTiles).flatMap((group) => group.tiles);
      for (const tile of tiles) {
        const path = tile.entity ? entities[tile.entity as keyof typeof entities].api.basePath : '/api/chat/analytics';
        const res = await client.get(path);
        check(`${who} tile ${tile.path}`, true, res.status === 200);
      }
      for (const [name, model] of Object.entries(entities)) {
        const access = entityAccess[name as keyof typeof entityAccess];
        const page = crudRouteAccess(access).some(can);
        check(`${who} page ${name}`, page, (await client.get(model.api.basePath)).status === 200);
        if (model.flags.creatable) {
          const res = await client.post(model.api.basePath, {});
          check(`${who} create ${name}`, mayDo(can, access.permissions, 'create'), res.status !== 403);
        }
        if (model.flags.deletable) {
          const res = await client.del(`${model.api.basePath}/no-such-record-0`);
          check(`${who} delete ${name}`, mayDo(can, access.permissions, 'delete'), res.status !== 403);
        }
      }
      // Bot rows' Analítica: offered by its manifest permission (or :manage), opens the analytics API.
      const analytics = entities.bot.rowActions.find((action) => action.name === 'analytics')!;
      const offersAnalytics = can(analytics.permission!) || can(analytics.permission!.replace(/:view$/, ':manage'));
      check(`${who} Analítica`, offersAnalytics, (await client.get('/api/chat/analytics')).status === 200);

      // User rows: Editar offered by user:update and the delegation rule; the server then saves.
      const own = roles.find((r) => r._id === caller._id)!;
      const delegator: Delegator = { permissions: held, role: { _id: own._id, childRoles: idsOf(own) } };
      for (const target of roles) {
        const userId = targets.get(target._id)!;
        const offered = mayDo(can, entityAccess.user.permissions, 'update') && mayActOnUser(coverage, delegator, { ...target, childRoles: idsOf(target) }).ok;
        const res = await client.put(`/api/users/${userId}`, { phone: '601' });
        check(`${who} edits a user with role ${target.name} (${res.status} ${res.status === 200 ? '' : res.text.slice(0, 120)})`, offered, res.status === 200);
      }

      // Child-role picker: the roles a caller with role:update may list under a role it may change.
      if (mayDo(can, entityAccess.role.permissions, 'update')) {
        const probe = await create<Role>(server, '/api/roles', { name: `Sonda ${who}`, permissions: [] });
        for (const target of roles) {
          const res = await client.put(`/api/roles/${probe._id}`, { name: probe.name, childRoles: [target._id] });
          check(`${who} lists ${target.name} as a child role`, mayAddChildRole(coverage, caller, target).ok, res.status === 200);
          await server.put(`/api/roles/${probe._id}`, { name: probe.name, childRoles: [] });
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
