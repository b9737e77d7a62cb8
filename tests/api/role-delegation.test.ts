// Issue 27 item 3: one rule for what a role may do (contract/permissions/role-delegation.ts), read
// by the server and by the console. Each seeded and custom role signs in and is walked through
// every role: what the console offers (the user form's role picker reads GET
// /api/roles/assignable; the role rows' Edit comes from mayChangeRole, the console's call) is
// compared with what the server then does (POST /api/users, PUT /api/roles/:id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create } from './helpers/fixtures.ts';
import { PermissionCoverage } from '../../contract/permissions/permission-coverage.ts';
import { mayChangeRole } from '../../contract/permissions/role-delegation.ts';
import { entities } from '../../src/generated/entities.ts';

let server: TestServer;
const coverage = new PermissionCoverage(entities);
let counter = 0;

interface Role { _id: string; name: string; permissions: string[]; readonly: boolean }

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
});
