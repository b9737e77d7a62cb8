import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'fk_';

/** A new API key secret: 32 random bytes, prefixed so leaked keys are recognisable in scans. */
export function generateApiKeySecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keyed hash (HMAC-SHA256 with a server pepper) of an API key secret. The secret has 256 bits of
 * entropy, so a fast keyed hash is safe and lets every request be checked by an indexed lookup;
 * a stolen database alone cannot be used to test guesses without the pepper.
 */
export function hashApiKeySecret(secret: string, pepper: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(PREFIX) && value.length > PREFIX.length + 20 && value.length < 200;
}
