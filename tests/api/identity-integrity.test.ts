// Issue 15 item 8 and issue 16 "other defects" in identity/settings: records in use, the last
// administrator, unique usernames under concurrency, token revocation on password changes,
// secrets bound to their host, setting length caps, the seeded admin's e-mail, no-store.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, userWith } from './helpers/fixtures.ts';
import { settingsStoreFor } from '../../server/settings/settings-store.ts';
import { insertRecord } from '../../server/seed/insert-record.ts';

let server: TestServer;
let adminRole: any;
let adminUser: any;
beforeAll(async () => {
  server = await startTestServer();
  adminRole = (await server.get('/api/roles/all')).body.find((r: any) => r.name === 'Admin');
  adminUser = (await server.get('/api/users/find?search=admin')).body.find((u: any) => u.username === 'admin');
});
afterAll(async () => {
  await server?.close();
});

const person = (username: string, role: string, extra: Record<string, unknown> = {}) => ({
  name: username, username, email: `${username}@example.com`, phone: '1', password: `pw-${username}-1`, role, ...extra,
});

describe('deleting a role or tenant still in use', () => {
  it('is refused with 409 saying how many records use it; unused ones delete', async () => {
    const role = await create(server, '/api/roles', { name: 'Busy role', permissions: [] });
    const parent = await create(server, '/api/roles', { name: 'Parent role', permissions: [], childRoles: [role._id] });
    const tenant = await create(server, '/api/tenants', { name: 'Busy tenant' });
    await create(server, '/api/users', person('busy1', role._id, { tenant: tenant._id }));
    await create(server, '/api/users', person('busy2', role._id));
    // The tenant column of contacts and bots is not a field (a platform user cannot set it over the API).
    await insertRecord(server.forja.database, server.forja.service.definition('contact'), { name: 'Contact C', email: 'c@example.com', tenant: tenant._id });
    await insertRecord(server.forja.database, server.forja.service.definition('bot'), { name: 'Bot B', description: 'd', tenant: tenant._id });

    const roleDelete = await server.del(`/api/roles/${role._id}`);
    expect(roleDelete.status).toBe(409);
    // Two users and one role (as a child role).
    expect(roleDelete.body).toMatchObject({ i18nMessage: 'error.roleInUse', i18nParams: { count: 3 } });
    expect(roleDelete.body.message).toContain('used by 3 records');
    const tenantDelete = await server.del(`/api/tenants/${tenant._id}`);
    expect(tenantDelete.status).toBe(409);
    // One user, one contact, one bot.
    expect(tenantDelete.body).toMatchObject({ i18nMessage: 'error.tenantInUse', i18nParams: { count: 3 } });
    const gql = await server.post('/graphql', { query: `mutation { tenantDelete(id: "${tenant._id}") }` });
    expect(gql.body.errors[0].extensions).toMatchObject({ status: 409, i18nMessage: 'error.tenantInUse' });
    expect((await server.get(`/api/roles/${role._id}`)).status).toBe(200);
    expect((await server.get(`/api/tenants/${tenant._id}`)).status).toBe(200);

    // A role listing itself as a child does not keep itself alive; a free tenant deletes.
    const lonely = await create(server, '/api/roles', { name: 'Lonely', permissions: [] });
    await server.put(`/api/roles/${lonely._id}`, { childRoles: [lonely._id] });
    expect((await server.del(`/api/roles/${lonely._id}`)).status).toBe(204);
    expect((await server.del(`/api/roles/${parent._id}`)).status).toBe(204);
    const free = await create(server, '/api/tenants', { name: 'Free tenant' });
    expect((await server.del(`/api/tenants/${free._id}`)).status).toBe(204);
  });
});

describe('the last active administrator', () => {
  it('cannot delete, deactivate or demote itself; with another administrator it can', async () => {
    const userRole = (await server.get('/api/roles/all')).body.find((r: any) => r.name === 'User');
    for (const res of [
      await server.del(`/api/users/${adminUser._id}`),
      await server.put(`/api/users/${adminUser._id}`, { active: false }),
      await server.put(`/api/users/${adminUser._id}`, { role: userRole._id }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.i18nMessage).toBe('error.lastAdministrator');
    }
    expect((await server.get(`/api/users/${adminUser._id}`)).body).toMatchObject({ active: true, role: { _id: adminRole._id } });
    // A custom role holding every permission also counts, and cannot be stripped while it is the last one in use.
    const all = (await server.get('/api/permissions')).body;
    const superRole = await create(server, '/api/roles', { name: 'Super', permissions: all });
    const second = await create(server, '/api/users', person('second-admin', superRole._id));
    const secondClient = server.as({ token: await server.login('second-admin', 'pw-second-admin-1') });
    // An inactive administrator does not count.
    await server.put(`/api/users/${second._id}`, { active: false });
    expect((await server.put(`/api/users/${adminUser._id}`, { active: false })).status).toBe(409);
    await server.put(`/api/users/${second._id}`, { active: true });
    // Now the seeded admin may step down; then the second is the last one.
    expect((await secondClient.put(`/api/users/${adminUser._id}`, { active: false })).status).toBe(200);
    expect((await secondClient.put(`/api/roles/${superRole._id}`, { permissions: all.slice(1) })).body.i18nMessage).toBe('error.lastAdministrator');
    expect((await secondClient.del(`/api/users/${second._id}`)).status).toBe(409);
    expect((await secondClient.put(`/api/users/${adminUser._id}`, { active: true })).status).toBe(200);
    expect((await server.get('/api/auth/me')).status).toBe(200);
    expect((await server.del(`/api/users/${second._id}`)).status).toBe(204);
  });
});

describe('usernames are unique', () => {
  it('12 concurrent creates of one username give one account; the others 409 naming username', async () => {
    const body = person('racer', adminRole._id);
    const results = await Promise.all(Array.from({ length: 12 }, () => server.post('/api/users', body)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.inputErrors).toEqual([{ field: 'username', reason: 'validation.unique' }]);
    }
    const definition = server.forja.service.definition('user');
    const rows = await server.forja.database.all(server.forja.database.kysely.selectFrom(definition.table).select('_id').where('username', '=', 'racer').compile());
    expect(rows).toHaveLength(1);
    // Renaming onto a taken username is a 409 too.
    const other = await create(server, '/api/users', person('racer-two', adminRole._id));
    expect((await server.put(`/api/users/${other._id}`, { username: 'racer' })).body.inputErrors).toEqual([{ field: 'username', reason: 'validation.unique' }]);
  });

  it('the database refuses a duplicate that slips past the check (unique index), answered as 409', async () => {
    const { database } = server.forja;
    const definition = server.forja.service.definition('user');
    const row = await database.first(database.kysely.selectFrom(definition.table).selectAll().where('username', '=', 'racer').compile());
    await expect(database.run(database.kysely.insertInto(definition.table).values({ ...row, _id: 'dup-racer' }).compile())).rejects.toThrow(/unique|duplicate/i);
  });
});

describe('tokens end when the password changes', () => {
  it('an administrator reset, a PUT with a password and a recovery revoke every earlier token', async () => {
    const u = await userWith(server, ['bot:view']);
    const second = server.as({ token: await server.login(u.user.username, `pw-${u.user.username}-123`) });
    expect((await u.client.get('/api/bots')).status).toBe(200);
    expect((await server.post(`/api/users/password/change/${u.user._id}`, { newPassword: 'reset-by-admin-1' })).status).toBe(200);
    for (const client of [u.client, second]) {
      const res = await client.get('/api/bots');
      expect(res.status).toBe(401);
      expect(res.body.i18nMessage).toBe('error.authRequired');
    }
    // A token signed with the right key but the old version is refused as well.
    expect((await server.as({ token: await server.signToken({ sub: u.user._id }) }).get('/api/bots')).status).toBe(401);
    const fresh = server.as({ token: await server.login(u.user.username, 'reset-by-admin-1') });
    expect((await fresh.get('/api/bots')).status).toBe(200);
    expect((await server.put(`/api/users/${u.user._id}`, { password: 'reset-by-put-1' })).status).toBe(200);
    expect((await fresh.get('/api/bots')).status).toBe(401);
    const another = server.as({ token: await server.login(u.user.username, 'reset-by-put-1') });
    // Other changes to the user do not sign it out.
    expect((await server.put(`/api/users/${u.user._id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await another.get('/api/bots')).status).toBe(200);
  });

  it('an own change keeps the session that made it and ends the others', async () => {
    const u = await userWith(server, ['bot:view']);
    const password = `pw-${u.user.username}-123`;
    const other = server.as({ token: await server.login(u.user.username, password) });
    expect((await u.client.post('/api/users/password/change', { currentPassword: password, newPassword: 'own-change-1' })).status).toBe(200);
    expect((await u.client.get('/api/bots')).status).toBe(200);
    expect((await other.get('/api/bots')).status).toBe(401);
    // A later reset ends the kept session too.
    expect((await server.post(`/api/users/password/change/${u.user._id}`, { newPassword: 'own-change-2' })).status).toBe(200);
    expect((await u.client.get('/api/bots')).status).toBe(401);
  });

  it('a completed recovery ends every session', async () => {
    const u = await userWith(server, ['bot:view']);
    const codes = await import('../../server/identity/recovery-codes.ts');
    const code = await new codes.RecoveryCodes(server.forja.database).issue(u.user._id);
    expect((await server.as(null).post('/api/users/password/recovery/complete', { recoveryCode: code, newPassword: 'recovered-1' })).status).toBe(200);
    expect((await u.client.get('/api/bots')).status).toBe(401);
  });
});

describe('settings', () => {
  const patch = (key: string, value: unknown) => server.patch(`/api/settings/${key}`, { value });
  const stored = (key: string) => settingsStoreFor(server.forja.database).get(key);

  it('moving llm.baseUrl, embedding.baseUrl or smtp.host to another host clears the secret bound to it', async () => {
    await patch('llm.baseUrl', 'https://llm.example/v1');
    await patch('llm.apiKey', 'sk-llm-secret');
    await patch('embedding.apiKey', 'sk-emb-secret');
    // Same origin, other path: the key stays.
    expect((await patch('llm.baseUrl', 'https://llm.example/v2')).body.cleared).toBeUndefined();
    expect(await stored('llm.apiKey')).toBe('sk-llm-secret');
    // Another host (also only another port or scheme): the key is gone, the answer says so.
    const moved = await patch('llm.baseUrl', 'https://attacker.example/v1');
    expect(moved.status).toBe(200);
    // embedding.baseUrl is empty, so the embedding key (meant for the old host too) goes as well.
    expect(moved.body.cleared).toEqual(['llm.apiKey', 'embedding.apiKey']);
    expect(await stored('llm.apiKey')).toBeNull();
    expect(await stored('embedding.apiKey')).toBeNull();
    await patch('llm.apiKey', 'sk-again');
    expect((await patch('llm.baseUrl', 'http://attacker.example/v1')).body.cleared).toEqual(['llm.apiKey']);
    await patch('llm.apiKey', 'sk-again');
    expect((await patch('llm.baseUrl', 'http://attacker.example:8080/v1')).body.cleared).toEqual(['llm.apiKey']);
    await patch('llm.apiKey', 'sk-again');
    expect((await patch('llm.baseUrl', '')).body.cleared).toEqual(['llm.apiKey']);

    await patch('embedding.baseUrl', 'https://emb.example');
    await patch('embedding.apiKey', 'sk-emb');
    expect((await patch('embedding.baseUrl', 'https://other.example')).body.cleared).toEqual(['embedding.apiKey']);

    await patch('smtp.host', 'smtp.example');
    await patch('smtp.password', 'smtp-secret');
    expect((await patch('smtp.host', 'SMTP.example')).body.cleared).toBeUndefined();
    expect((await patch('smtp.host', 'mail.attacker.example')).body.cleared).toEqual(['smtp.password']);
    expect(await stored('smtp.password')).toBeNull();
    await patch('smtp.host', '');
  });

  it('values have a length cap (400, nothing stored)', async () => {
    const before = await stored('smtp.from');
    for (const [key, value] of [['smtp.from', 'x'.repeat(2049)], ['llm.model', 'y'.repeat(1_000_000)], ['llm.apiKey', 'z'.repeat(5000)]] as const) {
      const res = await patch(key, value);
      expect(res.status, key).toBe(400);
      expect(res.body.inputErrors).toEqual([{ field: 'value', reason: 'validation.setting.tooLong' }]);
    }
    expect(await stored('smtp.from')).toBe(before);
    expect((await patch('smtp.from', 'x'.repeat(2048))).status).toBe(200);
    expect((await patch('smtp.port', '1'.repeat(100))).status).toBe(400);
    await patch('smtp.from', before);
  });
});

describe('the seeded administrator', () => {
  it('has a valid e-mail, so its record can be edited', async () => {
    expect(adminUser.email).toBe('admin@forja.invalid');
    const res = await server.put(`/api/users/${adminUser._id}`, { ...adminUser, name: 'The Administrator' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('The Administrator');
  });

  it('an old database holding admin@localhost is migrated on the next start; another address is kept', async () => {
    const { database } = server.forja;
    const table = server.forja.service.definition('user').table;
    const restart = async () => {
      const again = await startTestServer({ dataDir: server.dataDir, identity: { jwtSecret: server.jwtSecret } });
      const email = (await again.get(`/api/users/${adminUser._id}`)).body.email;
      await again.close();
      return email;
    };
    await database.run(database.kysely.updateTable(table).set({ email: 'admin@localhost' }).where('_id', '=', adminUser._id).compile());
    expect(await restart()).toBe('admin@forja.invalid');
    await server.put(`/api/users/${adminUser._id}`, { email: 'boss@example.com' });
    expect(await restart()).toBe('boss@example.com');
  });
});

describe('API answers are never cached', () => {
  it('Cache-Control: no-store on REST and GraphQL answers, errors included', async () => {
    const anonymous = server.as(null);
    const answers = [
      await server.get('/api/users'), await server.get('/api/auth/me'), await server.get('/api/settings'),
      await anonymous.get('/api/users'), await anonymous.post('/api/auth/login', { username: 'admin', password: 'wrong' }),
      await server.get('/api/users/nope'), await server.get('/api/no-such-route'), await server.get('/api/health'),
      await server.post('/graphql', { query: '{ userFind(limit: 1) { _id } }' }),
    ];
    for (const res of answers) expect(res.headers.get('cache-control'), res.text.slice(0, 80)).toBe('no-store');
  });
});

describe('files: the secrets folder is refused by its real path', () => {
  it('a symlink into secrets/ (file or folder) is not served', async () => {
    const secrets = path.join(server.dataDir, 'secrets');
    fs.mkdirSync(secrets, { recursive: true });
    fs.writeFileSync(path.join(secrets, 'jwt-secret'), 'the-signing-key-0123456789abcdef0123456789');
    const uploads = path.join(server.dataDir, 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    fs.symlinkSync(path.join(secrets, 'jwt-secret'), path.join(uploads, 'innocent.txt'));
    fs.symlinkSync('../secrets/jwt-secret', path.join(uploads, 'relative.txt'));
    fs.symlinkSync(secrets, path.join(server.dataDir, 'docs'));
    fs.symlinkSync(path.join(server.dataDir, 'forja.db'), path.join(uploads, 'db.txt'));
    fs.writeFileSync(path.join(uploads, 'fine.txt'), 'fine');
    for (const p of ['/files/uploads/innocent.txt', '/files/uploads/relative.txt', '/files/docs/jwt-secret', '/files/uploads/db.txt']) {
      const res = await server.as(null).get(p);
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('the-signing-key');
    }
    expect((await server.as(null).get('/files/uploads/fine.txt')).text).toBe('fine');
  });
});
