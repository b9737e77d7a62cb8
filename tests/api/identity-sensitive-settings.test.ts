// Security review, defect 1: a user with setting:update (or setting:manage) but not every
// permission could make itself Admin (auth.defaultRole=Admin + registration on + anonymous
// registration), take over the admin through recovery (smtp.host) or phish (app.publicUrl).
// Security-relevant settings now need every permission, and registration / Google sign-up refuse
// a default role holding user, role, setting or tenant permissions. Settings are not available
// over GraphQL (docs/product-rules.md#product), so the attacks are REST only; the roles they rely on are checked over
// GraphQL too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, expectNoLeaks, userWith } from './helpers/fixtures.ts';
import { fakeGoogleIdentity } from './helpers/google-identity.ts';

const google = fakeGoogleIdentity('forja-sensitive.apps.googleusercontent.com');
const GOOGLE_CLIENT_ID = google.clientId;
const googleToken = google.token;

const SENSITIVE: [string, unknown][] = [
  ['auth.defaultRole', 'Admin'],
  ['auth.registrationEnabled', true],
  ['auth.recoveryEnabled', false],
  ['auth.googleAutoCreate', false],
  ['smtp.host', 'smtp.attacker.example'],
  ['smtp.port', 2525],
  ['smtp.user', 'attacker'],
  ['smtp.password', 'secret-of-attacker'],
  ['smtp.from', 'Forja <a@attacker.example>'],
  ['smtp.secure', true],
  ['app.publicUrl', 'https://attacker.example'],
  ['google.clientId', 'attacker.apps.googleusercontent.com'],
  ['llm.baseUrl', 'https://llm.attacker.example/v1'],
  ['embedding.baseUrl', 'https://emb.attacker.example/v1'],
];

let server: TestServer;

async function snapshot(): Promise<Record<string, unknown>> {
  const list = (await server.get('/api/settings')).body as { key: string; value: unknown }[];
  return Object.fromEntries(list.map((s) => [s.key, s.value]));
}

async function usernames(): Promise<string[]> {
  return (await server.get('/api/users?limit=1000')).body.items.map((u: any) => u.username).sort();
}

function expect4xx(res: { status: number; body: any }, status: number, i18nMessage: string, label = ''): void {
  expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(status);
  expectErrorShape(res.body);
  expect(res.body.i18nMessage, label).toBe(i18nMessage);
  expect(Object.keys(res.body).every((k) => ['message', 'i18nMessage', 'inputErrors', 'i18nParams'].includes(k)), JSON.stringify(res.body)).toBe(true);
}

beforeAll(async () => {
  server = await startTestServer({
    identity: { googleCertificates: google.certificates },
  });
});
afterAll(async () => {
  expectNoLeaks(server, ['secret-of-attacker']);
  await server.close();
});

describe('security-relevant settings need every permission', () => {
  it('setting:view + setting:update, setting:manage, or nearly everything: 403 by key and by id, nothing changed', async () => {
    const all = (await server.get('/api/permissions')).body as string[];
    const callers = [
      await userWith(server, ['setting:view', 'setting:update']),
      await userWith(server, ['setting:manage']),
      await userWith(server, ['setting:manage', 'user:manage', 'role:manage', 'role:permissions']),
      // Everything but one permission is not everything.
      await userWith(server, all.filter((p) => p !== 'bot:delete')),
    ];
    const before = await snapshot();
    const ids = Object.fromEntries(((await server.get('/api/settings')).body as any[]).map((s) => [s.key, s._id]));
    for (const caller of callers) {
      for (const [key, value] of SENSITIVE) {
        for (const path of [key, ids[key]]) {
          const res = await caller.client.patch(`/api/settings/${path}`, { value });
          expect4xx(res, 403, 'error.settingRequiresAdmin', `${caller.role.name} ${key}`);
        }
      }
      // The attack chain's last step: registration stays off, so no account appears.
      const reg = await server.as(null).post('/api/users/register', { username: 'intruder', name: 'I', email: 'i@example.com', phone: '1', password: 'intruder-pw-1', confirmPassword: 'intruder-pw-1' });
      expect(reg.status).toBeGreaterThanOrEqual(400);
      expect(reg.status).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
    expect(await usernames()).not.toContain('intruder');
    // Ordinary settings stay theirs.
    expect((await callers[0]!.client.patch('/api/settings/llm.model', { value: 'model-x' })).status).toBe(200);
    expect((await callers[1]!.client.patch('/api/settings/llm.timeoutMs', { value: 30000 })).status).toBe(200);
    await server.patch('/api/settings/llm.model', { value: '' });
    await server.patch('/api/settings/llm.timeoutMs', { value: 60000 });
  });

  it('the seeded admin and any role holding every permission may change them', async () => {
    const all = (await server.get('/api/permissions')).body as string[];
    const full = await userWith(server, all);
    for (const client of [server, full.client]) {
      expect((await client.patch('/api/settings/app.publicUrl', { value: 'https://forja.example' })).status).toBe(200);
      expect((await client.patch('/api/settings/smtp.port', { value: 465 })).status).toBe(200);
    }
    await server.patch('/api/settings/app.publicUrl', { value: '' });
    await server.patch('/api/settings/smtp.port', { value: 587 });
  });
});

describe('the default role of registration and Google sign-up', () => {
  it('cannot be set to a role holding user, role, setting or tenant permissions, even by the admin', async () => {
    const risky = [
      await create(server, '/api/roles', { name: 'Risky users', permissions: ['user:view'] }),
      await create(server, '/api/roles', { name: 'Risky roles', permissions: ['role:permissions'] }),
      await create(server, '/api/roles', { name: 'Risky settings', permissions: ['setting:view'] }),
      await create(server, '/api/roles', { name: 'Risky tenants', permissions: ['tenant:manage'] }),
    ];
    for (const name of ['Admin', ...risky.map((r) => r.name)]) {
      expect4xx(await server.patch('/api/settings/auth.defaultRole', { value: name }), 409, 'error.unsafeDefaultRole', name);
    }
    expect((await server.get('/api/settings/auth.defaultRole')).body.value).toBe('User');
    const safe = await create(server, '/api/roles', { name: 'Readers', permissions: ['bot:view', 'userApiKey:myView'] });
    expect((await server.patch('/api/settings/auth.defaultRole', { value: safe.name })).status).toBe(200);
    await server.patch('/api/settings/auth.defaultRole', { value: 'User' });
  });

  it('registration refuses a default role that became privileged after it was chosen (REST and GraphQL role edits)', async () => {
    const role = await create(server, '/api/roles', { name: 'Newcomers', permissions: ['userApiKey:myView'] });
    expect((await server.patch('/api/settings/auth.defaultRole', { value: 'Newcomers' })).status).toBe(200);
    expect((await server.patch('/api/settings/auth.registrationEnabled', { value: true })).status).toBe(200);
    const register = (username: string) => server.as(null).post('/api/users/register', { username, name: username, email: `${username}@example.com`, phone: '1', password: 'newcomer-pw-1', confirmPassword: 'newcomer-pw-1' });
    try {
      expect((await register('harmless1')).status).toBe(201);
      const before = await usernames();
      const variants: [string, () => Promise<unknown>][] = [
        ['REST user:create', () => server.put(`/api/roles/${role._id}`, { permissions: ['userApiKey:myView', 'user:create'] })],
        ['REST setting:update', () => server.put(`/api/roles/${role._id}`, { permissions: ['setting:update'] })],
        ['GraphQL role:view', () => server.post('/graphql', { query: `mutation { roleUpdate(id: "${role._id}", data: { permissions: ["role:view"] }) { _id } }` })],
        ['REST userApiKey:delete (others\' keys)', () => server.put(`/api/roles/${role._id}`, { permissions: ['userApiKey:delete'] })],
        ['REST every permission', async () => server.put(`/api/roles/${role._id}`, { permissions: (await server.get('/api/permissions')).body })],
      ];
      let n = 0;
      for (const [label, escalate] of variants) {
        await server.put(`/api/roles/${role._id}`, { permissions: ['userApiKey:myView'] });
        await escalate();
        expect((await server.get(`/api/roles/${role._id}`)).body.permissions, label).not.toEqual(['userApiKey:myView']);
        n += 1;
        expect4xx(await register(`intruder${n}`), 409, 'error.unsafeDefaultRole', label);
      }
      expect(await usernames()).toEqual(before);
    } finally {
      await server.put(`/api/roles/${role._id}`, { permissions: ['userApiKey:myView'] });
      await server.patch('/api/settings/auth.registrationEnabled', { value: false });
      await server.patch('/api/settings/auth.defaultRole', { value: 'User' });
    }
  });

  it('Google auto-create refuses it too; existing Google users still sign in', async () => {
    const role = await create(server, '/api/roles', { name: 'Googlers', permissions: ['userApiKey:myView'] });
    await server.patch('/api/settings/google.clientId', { value: GOOGLE_CLIENT_ID });
    await server.patch('/api/settings/auth.defaultRole', { value: 'Googlers' });
    try {
      const first = await server.as(null).post('/api/google/login', { credential: googleToken({ email: 'known@example.com', name: 'Known' }) });
      expect(first.status).toBe(200);
      await server.put(`/api/roles/${role._id}`, { permissions: ['user:manage'] });
      const before = await usernames();
      for (const email of ['new1@example.com', 'NEW2@example.com']) {
        expect4xx(await server.as(null).post('/api/google/login', { credential: googleToken({ email }) }), 409, 'error.unsafeDefaultRole', email);
      }
      expect(await usernames()).toEqual(before);
      // Matching an existing account does not need the default role.
      expect((await server.as(null).post('/api/google/login', { credential: googleToken({ email: 'known@example.com' }) })).status).toBe(200);
    } finally {
      await server.put(`/api/roles/${role._id}`, { permissions: ['userApiKey:myView'] });
      await server.patch('/api/settings/auth.defaultRole', { value: 'User' });
      await server.patch('/api/settings/google.clientId', { value: '' });
    }
  });
});
