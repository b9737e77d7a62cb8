import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import { tooManyRequests, waitText } from '../http/too-many-requests.ts';

/** The operations that try a credential: each has its own counter per caller address. */
export type CredentialAction = 'login' | 'googleLogin' | 'passwordChange';

/**
 * Counts one attempt of the caller (by address) and throws the 429 past the limit. With a reply,
 * it also sets the rate-limit headers (x-ratelimit-*, and retry-after once refused).
 */
export type CredentialLimiter = (request: FastifyRequest, reply?: FastifyReply) => Promise<void>;

export type CredentialLimits = Readonly<Record<CredentialAction, CredentialLimiter>>;

const WINDOW_MS = 60_000;

/**
 * The sign-in, Google sign-in and own-password-change limits (RATE_LIMIT_LOGIN a minute per
 * address each), created once per server and called by the identity operations themselves
 * (identity-operations.ts), so REST and GraphQL draw on the same counters: alternating
 * transports, or many aliased GraphQL fields in one request, buys no extra attempts. The counters
 * live in the rate-limit plugin's store (Redis with REDIS_URL, so they hold across instances).
 * The address is Fastify's request.ip: X-Forwarded-For counts only when TRUST_PROXY says so.
 */
export function createCredentialLimits(app: FastifyInstance, perMinute: number): CredentialLimits {
  const limiter = (action: CredentialAction): CredentialLimiter => {
    // Every limiter made by createRateLimit shares one key space in Redis: the action prefixes the key.
    const check = app.createRateLimit({ max: perMinute, timeWindow: WINDOW_MS, keyGenerator: (request) => `${action}:${normalizeIP(request.ip)}` });
    return async (request, reply) => {
      const result = await check(request);
      if (result.isAllowed) return;
      reply?.header('x-ratelimit-limit', result.max);
      reply?.header('x-ratelimit-remaining', result.remaining);
      reply?.header('x-ratelimit-reset', result.ttlInSeconds);
      if (!result.isExceeded) return;
      reply?.header('retry-after', result.ttlInSeconds);
      throw tooManyRequests(waitText(result.ttlInSeconds));
    };
  };
  return { login: limiter('login'), googleLogin: limiter('googleLogin'), passwordChange: limiter('passwordChange') };
}
