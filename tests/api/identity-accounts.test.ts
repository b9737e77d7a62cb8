import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { expectNoLeaks, userWith } from './helpers/fixtures.ts';
import { fakeGoogleIdentity } from './helpers/google-identity.ts';
import { until } from './helpers/until.ts';

const google = fakeGoogleIdentity('forja-test.apps.googleusercontent.com');
const GOOGLE_CLIENT_ID = google.clientId;
const googleToken = google.token;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    identity: { googleCertificates: google.certificates },
  });
});
afterAll(async () => {
  expectNoLeaks(server);
  await server.close();
});

async function setSetting(key: string, value: unknown) {
  const res = await server.patch(`/api/settings/${key}`, { value });
  expect(res.status).toBe(200);
}

describe('own password change', () => {
  it('needs the right current password, a different new one of 8..64 characters', async () => {
    const u = await userWith(server, []);
    const current = `pw-${u.user.username}-123`;
    const change = (body: unknown) => u.client.post('/api/users/password/change', body);
    expect((await change({ currentPassword: 'wrong-one', newPassword: 'another-123' })).body.inputErrors).toEqual([
      { field: 'currentPassword', reason: 'validation.password.current' },
    ]);
    expect((await change({ currentPassword: current, newPassword: current })).body.inputErrors).toEqual([
      { field: 'newPassword', reason: 'validation.password.different' },
    ]);
    expect((await change({ currentPassword: current, newPassword: 'short' })).body.inputErrors).toEqual([{ field: 'newPassword', reason: 'validation.password.min' }]);
    expect((await change({ currentPassword: current, newPassword: 'x'.repeat(65) })).body.inputErrors).toEqual([{ field: 'newPassword', reason: 'validation.password.max' }]);
    const ok = await change({ currentPassword: current, newPassword: 'brand-new-pass' });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(true);
    await expect(server.login(u.user.username, current)).rejects.toThrow('401');
    expect(await server.login(u.user.username, 'brand-new-pass')).toMatch(/^ey/);
    expect((await server.as(null).post('/api/users/password/change', { currentPassword: 'a', newPassword: 'b' })).status).toBe(401);
  });

  it('an administrator sets another user\'s password with user:update; tenants stay apart', async () => {
    const target = await userWith(server, []);
    const res = await server.post(`/api/users/password/change/${target.user._id}`, { newPassword: 'set-by-admin-1' });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect(await server.login(target.user.username, 'set-by-admin-1')).toMatch(/^ey/);
    expect((await server.post(`/api/users/password/change/${target.user._id}`, { newPassword: 'short' })).status).toBe(400);
    const nobody = await userWith(server, ['user:view']);
    expect((await nobody.client.post(`/api/users/password/change/${target.user._id}`, { newPassword: 'set-by-admin-2' })).status).toBe(403);
    const tenant = (await server.post('/api/tenants', { name: 'Acme' })).body;
    const tenantAdmin = await userWith(server, ['user:update'], { tenant: tenant._id });
    expect((await tenantAdmin.client.post(`/api/users/password/change/${target.user._id}`, { newPassword: 'set-by-admin-3' })).status).toBe(404);
  });
});

describe('registration', () => {
  const payload = { username: 'newbie', name: 'New Bie', email: 'newbie@example.com', phone: '600111222', password: 'newbie-pass', confirmPassword: 'newbie-pass' };

  it('is off by default', async () => {
    const res = await server.as(null).post('/api/users/register', payload);
    expect(res.status).toBe(403);
    expect(res.body.i18nMessage).toBe('error.registrationDisabled');
  });

  it('when enabled, validates per spec and creates an active user with the default role', async () => {
    await setSetting('auth.registrationEnabled', true);
    const anonymous = server.as(null);
    const bad = await anonymous.post('/api/users/register', { ...payload, name: ' ', email: 'nope', confirmPassword: 'other-pass' });
    expect(bad.status).toBe(400);
    expect(bad.body.inputErrors).toEqual([
      { field: 'name', reason: 'validation.required' },
      { field: 'email', reason: 'validation.email.invalid' },
      { field: 'confirmPassword', reason: 'validation.password.confirmed' },
    ]);
    expect((await anonymous.post('/api/users/register', { ...payload, password: 'short', confirmPassword: 'short' })).body.inputErrors).toEqual([
      { field: 'password', reason: 'validation.password.min' },
    ]);
    const res = await anonymous.post('/api/users/register', payload);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'newbie', active: true, role: { name: 'User' }, tenant: null });
    const token = await server.login('newbie', 'newbie-pass');
    const me = (await server.as({ token }).get('/api/auth/me')).body;
    expect(me.role.permissions).toEqual(['userApiKey:myView', 'userApiKey:myCreate']);
    const again = await anonymous.post('/api/users/register', payload);
    expect(again.status).toBe(409);
    expect(again.body.inputErrors).toEqual([{ field: 'username', reason: 'validation.unique' }]);
  });
});

describe('password recovery', () => {
  async function recover(email: string) {
    const res = await server.as(null).post('/api/users/password/recovery/request', { email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  }
  const codeOf = (text: string) => /password\/recovery\/complete\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  const arrived = async <T>(probe: () => T | undefined, what = 'the recovery e-mail'): Promise<T> =>
    (await until(probe, (value) => value !== undefined, what)) as T;

  it('through the outbox when no SMTP is configured; single use; same answer for unknown e-mails', async () => {
    const u = await userWith(server, []);
    await recover('nobody@example.com');
    await recover(u.user.email.toUpperCase());
    const outbox = path.join(server.dataDir, 'outbox');
    const mail = await arrived(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')).find((m) => m.includes(u.user.email)) : undefined));
    const code = codeOf(mail)!;
    expect(mail).toContain(`http://localhost:`);
    const complete = (body: unknown) => server.as(null).post('/api/users/password/recovery/complete', body);
    expect((await complete({ recoveryCode: code, newPassword: 'short' })).body.inputErrors).toEqual([{ field: 'newPassword', reason: 'validation.password.min' }]);
    expect((await complete({ recoveryCode: code, newPassword: 'recovered-pass' })).body).toBe(true);
    expect(await server.login(u.user.username, 'recovered-pass')).toMatch(/^ey/);
    const reused = await complete({ recoveryCode: code, newPassword: 'recovered-again' });
    expect(reused.status).toBe(400);
    expect(reused.body.inputErrors).toEqual([{ field: 'recoveryCode', reason: 'validation.recoveryCode.invalid' }]);
    expect((await complete({ recoveryCode: 'made-up', newPassword: 'recovered-again' })).status).toBe(400);
  });

  it('through a real SMTP server configured in Settings', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk) => (text += chunk));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const port = (smtp.server.address() as { port: number }).port;
      await setSetting('smtp.host', '127.0.0.1');
      await setSetting('smtp.port', String(port));
      await setSetting('smtp.from', 'Forja <forja@example.com>');
      await setSetting('app.publicUrl', 'https://console.example.com');
      const u = await userWith(server, []);
      await recover(u.user.email);
      const mail = await arrived(() => received.find((m) => m.includes(u.user.email)));
      expect(mail).toContain('https://console.example.com/password/recovery/complete/');
      const code = codeOf(mail.replace(/=\r?\n/g, ''))!;
      const res = await server.as(null).post('/api/users/password/recovery/complete', { recoveryCode: code, newPassword: 'via-smtp-pass' });
      expect(res.body).toBe(true);
      expect(await server.login(u.user.username, 'via-smtp-pass')).toMatch(/^ey/);
    } finally {
      await setSetting('smtp.host', '');
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('can be switched off', async () => {
    await setSetting('auth.recoveryEnabled', false);
    const res = await server.as(null).post('/api/users/password/recovery/request', { email: 'a@example.com' });
    expect(res.status).toBe(403);
    expect(res.body.i18nMessage).toBe('error.recoveryDisabled');
    await setSetting('auth.recoveryEnabled', true);
  });
});

describe('avatar', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

  it('accepts PNG and JPEG by content and sets the caller\'s avatar', async () => {
    const u = await userWith(server, []);
    const res = await u.client.upload('/api/users/avatar', { name: 'me.bin', content: png, type: 'application/octet-stream' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mimetype: 'image/png', url: expect.stringMatching(/^\/files\/avatars\/.+\.png$/) });
    expect((await u.client.get('/api/auth/me')).body.avatar).toBe(res.body.url);
    const file = await fetch(server.baseUrl + res.body.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    const j = await u.client.upload('/api/users/avatar', { name: 'me.jpeg', content: jpeg, type: 'image/jpeg' });
    expect(j.body.mimetype).toBe('image/jpeg');
  });

  it('refuses anything else with 415, whatever its name says, and anonymous callers with 401', async () => {
    const res = await server.upload('/api/users/avatar', { name: 'evil.png', content: '<svg onload="alert(1)"/>', type: 'image/png' });
    expect(res.status).toBe(415);
    expect(res.body.i18nMessage).toBe('error.unsupportedImage');
    expect((await server.as(null).upload('/api/users/avatar', { name: 'a.png', content: png })).status).toBe(401);
  });
});

describe('Google sign-in', () => {
  it('without a client id configured answers 501 with a clear message', async () => {
    const res = await server.as(null).post('/api/google/login', { credential: googleToken({ email: 'x@example.com' }) });
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ message: expect.stringContaining('not configured'), i18nMessage: 'error.googleNotConfigured' });
  });

  it('verifies the credential, creates the user with the default role, then finds them by e-mail', async () => {
    await setSetting('google.clientId', GOOGLE_CLIENT_ID);
    const anonymous = server.as(null);
    const first = await anonymous.post('/api/google/login', { credential: googleToken({ email: 'Ana.G@Example.com', name: 'Ana G' }) });
    expect(first.status).toBe(200);
    const me = (await server.as({ token: first.body.accessToken }).get('/api/auth/me')).body;
    expect(me).toMatchObject({ username: 'ana.g@example.com', email: 'ana.g@example.com', name: 'Ana G', role: { name: 'User' } });
    const second = await anonymous.post('/api/google/login', { credential: googleToken({ email: 'ana.g@example.com' }) });
    expect((await server.as({ token: second.body.accessToken }).get('/api/auth/me')).body.id).toBe(me.id);
    // An existing account is matched by its e-mail.
    const existing = await userWith(server, []);
    const third = await anonymous.post('/api/google/login', { credential: googleToken({ email: existing.user.email }) });
    expect((await server.as({ token: third.body.accessToken }).get('/api/auth/me')).body.id).toBe(existing.user._id);
  });

  it('refuses a credential for another audience, unverified e-mails and tampered tokens', async () => {
    const anonymous = server.as(null);
    for (const credential of [
      googleToken({ email: 'a@example.com', aud: 'someone-else' }),
      googleToken({ email: 'a@example.com', email_verified: false }),
      `${googleToken({ email: 'a@example.com' })}x`,
    ]) {
      const res = await anonymous.post('/api/google/login', { credential });
      expect(res.status).toBe(401);
      expect(res.body.i18nMessage).toBe('error.googleRejected');
    }
    expect((await anonymous.post('/api/google/logout', {})).body).toEqual({ ok: true });
  });
});
