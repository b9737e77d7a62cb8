import { generateKeyPairSync, createSign } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { SMTPServer } from 'smtp-server';
import { describe, expect, test } from 'vitest';
import { createTokenService, TokenError } from '../../../server/identity/token-service.ts';
import { hashPassword, verifyPassword } from '../../../server/identity/password-hasher.ts';
import { checkPasswordLength } from '../../../server/identity/password-policy.ts';
import { isAddressAllowed } from '../../../server/identity/ip-allow-list.ts';
import { generateApiKeySecret, hashApiKeySecret, looksLikeApiKey, sameHash } from '../../../server/identity/api-key-secret.ts';
import { readOrCreateSecret } from '../../../server/identity/secret-store.ts';
import { createMailer } from '../../../server/identity/mailer.ts';
import { createGoogleVerifier } from '../../../server/identity/google-verifier.ts';

const SECRET = 'x'.repeat(48);

async function problemOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error instanceof TokenError ? error.problem : `other: ${(error as Error).message}`;
  }
  return 'accepted';
}

describe('token service', () => {
  const tokens = createTokenService(SECRET, 3600);

  test('round-trips sub, role and tenant with an exp claim one lifetime ahead', async () => {
    const token = await tokens.sign({ sub: 'u1', role: 'r1', tenant: 't1' });
    const claims = await tokens.verify(token);
    expect(claims).toMatchObject({ sub: 'u1', role: 'r1', tenant: 't1' });
    expect(claims.exp - claims.iat).toBe(3600);
  });

  test('an expired token is "expired", distinct from invalid', async () => {
    const key = new TextEncoder().encode(SECRET);
    const old = Math.floor(Date.now() / 1000) - 7200;
    const token = await new SignJWT({ role: 'r', tenant: null }).setProtectedHeader({ alg: 'HS256' })
      .setSubject('u').setIssuer('forja').setIssuedAt(old).setExpirationTime(old + 60).sign(key);
    expect(await problemOf(tokens.verify(token))).toBe('expired');
  });

  test('alg none, a wrong signature, a future iat and garbage are "invalid"', async () => {
    const valid = await tokens.sign({ sub: 'u', role: null, tenant: null });
    const [, payload] = valid.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const forged = await createTokenService('y'.repeat(48)).sign({ sub: 'u', role: null, tenant: null });
    const future = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setIssuer('forja')
      .setIssuedAt(Math.floor(Date.now() / 1000) + 3600).setExpirationTime('3h').sign(new TextEncoder().encode(SECRET));
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setIssuer('forja')
      .setIssuedAt().sign(new TextEncoder().encode(SECRET));
    for (const token of [none, forged, future, noExp, 'abc', '', `${valid}x`]) {
      expect(await problemOf(tokens.verify(token))).toBe('invalid');
    }
  });
});

describe('passwords', () => {
  test('argon2id hashes verify, and wrong or malformed input does not', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'Correct horse')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'correct horse')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
  });

  test('length rules: 8 to 64', () => {
    expect(checkPasswordLength('')).toEqual({ field: 'newPassword', reason: 'validation.required' });
    expect(checkPasswordLength('1234567')).toEqual({ field: 'newPassword', reason: 'validation.password.min' });
    expect(checkPasswordLength('12345678')).toBeNull();
    expect(checkPasswordLength('x'.repeat(64))).toBeNull();
    expect(checkPasswordLength('x'.repeat(65), 'password')).toEqual({ field: 'password', reason: 'validation.password.max' });
  });
});

describe('API key secrets and address lists', () => {
  test('secrets are random, recognisable and hashed with the pepper', () => {
    const a = generateApiKeySecret();
    const b = generateApiKeySecret();
    expect(a).not.toBe(b);
    expect(looksLikeApiKey(a)).toBe(true);
    expect(looksLikeApiKey('Bearer abc')).toBe(false);
    expect(sameHash(hashApiKeySecret(a, 'pepper-1'), hashApiKeySecret(a, 'pepper-1'))).toBe(true);
    expect(sameHash(hashApiKeySecret(a, 'pepper-1'), hashApiKeySecret(a, 'pepper-2'))).toBe(false);
  });

  test('IPv4, IPv6, CIDR and IPv4-mapped IPv6 callers', () => {
    expect(isAddressAllowed('203.0.113.9', [], [])).toBe(true);
    expect(isAddressAllowed('203.0.113.9', ['203.0.113.9'], [])).toBe(true);
    expect(isAddressAllowed('::ffff:203.0.113.9', ['203.0.113.9'], [])).toBe(true);
    expect(isAddressAllowed('203.0.113.10', ['203.0.113.9'], [])).toBe(false);
    expect(isAddressAllowed('10.1.2.3', ['10.0.0.0/8'], [])).toBe(true);
    expect(isAddressAllowed('2001:db8::1', ['203.0.113.9'], [])).toBe(false);
    expect(isAddressAllowed('2001:db8:0:0::1', [], ['2001:db8::1'])).toBe(true);
    expect(isAddressAllowed('2001:db8::2', [], ['2001:db8::/64'])).toBe(true);
    expect(isAddressAllowed('2001:db9::2', [], ['2001:db8::/64'])).toBe(false);
    expect(isAddressAllowed('not an ip', ['1.2.3.4'], [])).toBe(false);
  });
});

describe('secret store', () => {
  test('generates once into a 0600 file and reuses it; the environment wins', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forja-secret-'));
    const first = readOrCreateSecret(dir, 'jwt', undefined);
    expect(first.source).toBe('generated');
    expect(statSync(path.join(dir, 'secrets/jwt')).mode & 0o777).toBe(0o600);
    expect(readOrCreateSecret(dir, 'jwt', undefined)).toEqual({ value: first.value, source: 'file' });
    expect(readOrCreateSecret(dir, 'jwt', 'e'.repeat(40))).toEqual({ value: 'e'.repeat(40), source: 'env' });
    expect(() => readOrCreateSecret(dir, 'jwt', 'short')).toThrow('at least 32 characters');
  });
});

describe('mailer', () => {
  const logger = { info: () => {} };

  test('without SMTP the message lands in the outbox', async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'forja-outbox-'));
    const result = await createMailer({ smtp: null, outboxDir, logger }).send({ to: 'ana@example.com', subject: 'Código', text: 'Tu código es 123456' });
    expect(result.delivery).toBe('outbox');
    const [file] = readdirSync(outboxDir);
    const eml = readFileSync(path.join(outboxDir, file), 'utf8');
    expect(eml).toContain('To: ana@example.com');
    expect(eml).toContain('Tu código es 123456');
  });

  test('with SMTP it is delivered to the server', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let data = '';
        stream.on('data', (chunk) => { data += chunk; });
        stream.on('end', () => { received.push(data); done(); });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const mailer = createMailer({ smtp: { host: '127.0.0.1', port, secure: false, from: 'forja@example.com' }, outboxDir: '/nonexistent', logger });
      const result = await mailer.send({ to: 'ana@example.com', subject: 'Hola', text: 'Cuerpo del mensaje' });
      expect(result.delivery).toBe('smtp');
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Cuerpo del mensaje');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Google sign-in verification', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificates = { k1: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
  const clientId = 'forja-test.apps.googleusercontent.com';

  function googleToken(claims: Record<string, unknown>): string {
    const now = Math.floor(Date.now() / 1000);
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ iss: 'https://accounts.google.com', aud: clientId, iat: now, exp: now + 600, ...claims })).toString('base64url');
    const signature = createSign('RSA-SHA256').update(`${header}.${body}`).sign(privateKey).toString('base64url');
    return `${header}.${body}.${signature}`;
  }

  test('a token signed by the configured certificate for our client id is accepted', async () => {
    const verify = createGoogleVerifier(clientId, certificates);
    await expect(verify(googleToken({ email: 'Ana@Example.com', email_verified: true, name: 'Ana' })))
      .resolves.toEqual({ email: 'ana@example.com', name: 'Ana', picture: null });
  });

  test('another audience, an unverified e-mail or a tampered token is refused', async () => {
    const verify = createGoogleVerifier(clientId, certificates);
    await expect(verify(googleToken({ email: 'a@b.c', aud: 'someone-else' }))).rejects.toThrow('Google credential rejected');
    await expect(verify(googleToken({ email: 'a@b.c', email_verified: false }))).rejects.toThrow('no verified e-mail');
    await expect(verify(`${googleToken({ email: 'a@b.c' })}x`)).rejects.toThrow('Google credential rejected');
  });
});
