import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expiryOf, hasExpired, hashCode, matchesHash, randomDigits, randomToken } from '../../../server/identity/single-use-code.ts';

describe('single-use codes (recovery links and e-mail codes)', () => {
  it('stores codes as the hashes already in the tables (unkeyed SHA-256, keyed HMAC over scope and code)', () => {
    // Codes issued before this module keep working: the stored forms are unchanged.
    expect(hashCode('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(hashCode('123456', { secret: 's', scope: 'conv-1' })).toBe(createHmac('sha256', 's').update('conv-1\n123456').digest('hex'));
  });

  it('a keyed code is worth nothing under another scope or secret', () => {
    const stored = hashCode('123456', { secret: 's', scope: 'conv-1' });
    expect(matchesHash(stored, '123456', { secret: 's', scope: 'conv-1' })).toBe(true);
    expect(matchesHash(stored, '123456', { secret: 's', scope: 'conv-2' })).toBe(false);
    expect(matchesHash(stored, '123456', { secret: 't', scope: 'conv-1' })).toBe(false);
    expect(matchesHash(stored, '123457', { secret: 's', scope: 'conv-1' })).toBe(false);
  });

  it('a consumed (cleared) or malformed stored hash matches no code', () => {
    expect(matchesHash('', '123456', { secret: 's', scope: 'c' })).toBe(false);
    expect(matchesHash('abc', 'abc')).toBe(false);
    expect(matchesHash(hashCode('abc'), 'abc')).toBe(true);
  });

  it('makes codes of the asked size from the system randomness', () => {
    for (let i = 0; i < 50; i++) expect(randomDigits(6)).toMatch(/^\d{6}$/);
    const token = randomToken(24);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(Array.from({ length: 20 }, () => randomToken(24))).size).toBe(20);
  });

  it('expires at issue time plus the lifetime, not before', () => {
    const issued = Date.UTC(2026, 0, 1);
    const expiry = expiryOf(issued, 60_000);
    expect(expiry).toBe('2026-01-01T00:01:00.000Z');
    expect(hasExpired(expiry, issued + 60_000)).toBe(false);
    expect(hasExpired(expiry, issued + 60_001)).toBe(true);
  });
});
