import { decodeJwt } from 'jose';

/** The claims the console reads from an access token; it never verifies the signature (the server does). */
export interface TokenClaims {
  exp?: number;
  sub?: string;
  [claim: string]: unknown;
}

/** Decodes a JWT's payload (jose's decodeJwt); null when the token is not a well-formed JWT. */
export function decodeJwtPayload(token: string): TokenClaims | null {
  try {
    return decodeJwt(token) as TokenClaims;
  } catch {
    return null;
  }
}

/** docs/product-rules.md#states: a token is valid only if it carries an expiry claim that has not passed yet. */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  if (!token) return false;
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) && exp * 1000 > nowMs;
}

/** Milliseconds until the token expires (0 when already expired or invalid). */
export function msUntilExpiry(token: string, nowMs: number = Date.now()): number {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' ? Math.max(0, exp * 1000 - nowMs) : 0;
}
