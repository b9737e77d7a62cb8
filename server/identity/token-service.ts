import { SignJWT, jwtVerify, errors } from 'jose';

export interface TokenClaims {
  /** User id. */
  sub: string;
  /** Role id. */
  role: string | null;
  /** Tenant id, null for platform administrators. */
  tenant: string | null;
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
  verify(token: string): Promise<TokenClaims & { exp: number; iat: number }>;
  lifetimeSeconds: number;
}

const ALGORITHM = 'HS256';
// Tokens issued "in the future" beyond normal clock skew are forged or from a broken clock.
const CLOCK_TOLERANCE_SECONDS = 30;

export function createTokenService(secret: string, lifetimeSeconds = 3600, issuer = 'forja'): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    lifetimeSeconds,
    async sign(claims) {
      return new SignJWT({ role: claims.role, tenant: claims.tenant })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(key);
    },
    async verify(token) {
      try {
        // algorithms pins HS256: "alg: none" and algorithm-confusion tokens are refused.
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM], issuer, clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ['exp', 'iat', 'sub'],
        });
        if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
          throw new TokenError('invalid', 'Token issued in the future');
        }
        return {
          sub: String(payload.sub),
          role: typeof payload.role === 'string' ? payload.role : null,
          tenant: typeof payload.tenant === 'string' ? payload.tenant : null,
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
