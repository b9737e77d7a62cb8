import { createSign, generateKeyPairSync } from 'node:crypto';

/**
 * A stand-in for Google's sign-in: a key pair whose public half the test server trusts (as
 * `identity.googleCertificates`) and ID tokens signed with it for one client id. Claims override
 * the defaults (a verified e-mail, valid for ten minutes), so tests can forge bad tokens too.
 */
export function fakeGoogleIdentity(clientId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientId,
    certificates: { k1: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    token(claims: Record<string, unknown>): string {
      const now = Math.floor(Date.now() / 1000);
      const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' })).toString('base64url');
      const body = Buffer.from(JSON.stringify({ iss: 'https://accounts.google.com', aud: clientId, iat: now, exp: now + 600, email_verified: true, ...claims })).toString('base64url');
      const signature = createSign('RSA-SHA256').update(`${header}.${body}`).sign(privateKey).toString('base64url');
      return `${header}.${body}.${signature}`;
    },
  };
}
