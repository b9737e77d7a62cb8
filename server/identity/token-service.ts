import { randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';

export interface TokenClaims {
  /** User id. */
  sub: string;
  /** Role id. */
  role: string | null;
  /** Tenant id, null for platform administrators. */
  tenant: string | null;
  /** The user's token version when issued (token-versions.ts); tokens without it count as 0. */
  ver?: number;
}

export type TokenProblem = 'expired' | 'invalid';

export class TokenError extends Error {
  constructor(readonly problem: TokenProblem, message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Throws TokenError('expired') or TokenError('invalid'). */
  verify(token: string): Promise<TokenClaims & { ver: number; exp: number; iat: number }>;
  lifetimeSeconds: number;
}

const ALGORITHM = 'HS256';
// Tokens issued "in the future" beyond normal clock skew are forged or from a broken clock.
const CLOCK_TOLERANCE_SECONDS = 30;

export function createTokenService(secret: string, lifetimeSeconds = 3600, issuer = 'forja'): TokenService {
  // A CryptoKey rather than a Uint8Array: jose checks Uint8Array with instanceof, which fails
  // when the server runs inside a jsdom test realm (the runtime's integration test).
  const key = webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return {
    lifetimeSeconds,
    async sign(claims) {
      return new SignJWT({ role: claims.role, tenant: claims.tenant, ver: claims.ver ?? 0 })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(issuer)
        .setIssuedAt()
        // Unique per sign-in: two sign-ins in the same second are two sessions (one may be kept
        // by a password change while the other ends).
        .setJti(randomUUID())
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(await key);
    },
    async verify(token) {
      try {
        // algorithms pins HS256: "alg: none" and algorithm-confusion tokens are refused.
        const { payload } = await jwtVerify(token, await key, {
          algorithms: [ALGORITHM], issuer, clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ['exp', 'iat', 'sub'],
        });
        if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
          throw new TokenError('invalid', 'Token issued in the future');
        }
        return {
          sub: String(payload.sub),
          role: typeof payload.role === 'string' ? payload.role : null,
          tenant: typeof payload.tenant === 'string' ? payload.tenant : null,
          ver: typeof payload.ver === 'number' && Number.isInteger(payload.ver) ? payload.ver : 0,
          exp: payload.exp!,
          iat: payload.iat!,
        };
      } catch (error) {
        if (error instanceof TokenError) throw error;
        if (error instanceof errors.JWTExpired) throw new TokenError('expired', 'Token expired');
        throw new TokenError('invalid', 'Invalid token');
      }
    },
  };
}
