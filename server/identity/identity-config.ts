/**
 * Identity settings read from the environment at start-up (server/identity/README.md lists them).
 * Tests pass overrides through createServer's `identity` option instead of touching process.env.
 *
 * | Variable              | Default                          | Meaning                                       |
 * |-----------------------|----------------------------------|-----------------------------------------------|
 * | JWT_SECRET            | DATA_DIR/secrets/jwt-secret      | HS256 signing key (>= 32 characters)          |
 * | JWT_LIFETIME_SECONDS  | 3600                             | Access-token lifetime                         |
 * | API_KEY_SECRET        | DATA_DIR/secrets/api-key-secret  | Pepper of the API-key hashes (>= 32 chars)    |
 * | ADMIN_USERNAME        | admin                            | Seeded administrator                          |
 * | ADMIN_PASSWORD        | generated, printed once          | Its password on first start only              |
 * | GOOGLE_CLIENT_ID      | (unset; setting google.clientId) | Google sign-in audience                       |
 * | PUBLIC_URL            | http://localhost:PORT            | Origin used in recovery e-mail links          |
 * | RATE_LIMIT_LOGIN      | 10                               | Sign-in attempts per minute per address       |
 * | RATE_LIMIT_REGISTER   | 5                                | Registrations per minute per address          |
 * | RATE_LIMIT_RECOVERY   | 5                                | Recovery requests/completions per minute      |
 * | CORS_ORIGINS          | (unset: no cross-origin access)  | Comma-separated allowed origins, or *         |
 */
export interface IdentityConfig {
  jwtSecret: string | undefined;
  apiKeySecret: string | undefined;
  tokenLifetimeSeconds: number;
  adminUsername: string;
  adminPassword: string | undefined;
  googleClientId: string | undefined;
  /** Google signing certificates by key id; tests and air-gapped installs supply them. */
  googleCertificates: Record<string, string> | undefined;
  publicUrl: string | undefined;
  /** Per minute and address; `anonymous`: any other public route taking a body, for anonymous callers (server/http/public-route-bounds.ts). */
  rateLimits: { login: number; register: number; recovery: number; anonymous?: number };
  corsOrigins: string[];
}

/** Requests a minute one address may send, anonymously, to a public route without a limit of its own. */
export const DEFAULT_ANONYMOUS_PER_MINUTE = 120;

export function loadIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const text = (name: string) => env[name]?.trim() || undefined;
  return {
    jwtSecret: text('JWT_SECRET'),
    apiKeySecret: text('API_KEY_SECRET'),
    tokenLifetimeSeconds: positiveInteger(env, 'JWT_LIFETIME_SECONDS', 3600),
    adminUsername: text('ADMIN_USERNAME') ?? 'admin',
    adminPassword: text('ADMIN_PASSWORD'),
    googleClientId: text('GOOGLE_CLIENT_ID'),
    googleCertificates: undefined,
    publicUrl: text('PUBLIC_URL'),
    rateLimits: {
      login: positiveInteger(env, 'RATE_LIMIT_LOGIN', 10),
      register: positiveInteger(env, 'RATE_LIMIT_REGISTER', 5),
      recovery: positiveInteger(env, 'RATE_LIMIT_RECOVERY', 5),
      anonymous: positiveInteger(env, 'RATE_LIMIT_ANONYMOUS', DEFAULT_ANONYMOUS_PER_MINUTE),
    },
    corsOrigins: (text('CORS_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer; got ${JSON.stringify(raw)}`);
  return value;
}
