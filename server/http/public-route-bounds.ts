import type { FastifyInstance } from 'fastify';
import type { Enforce } from './authorize-route.ts';
import { authenticationError } from './authentication-error.ts';

/**
 * Body limit of a route anyone may call, unless it declares its own: sign-in, logout, Google
 * sign-in, registration, recovery, chat verification and resume take a few hundred bytes.
 */
export const PUBLIC_BODY_LIMIT = 8 * 1024;
/** Public routes whose callers are mostly signed in and that carry whole records: the global limit. */
const LARGE_PUBLIC_ROUTES = new Set(['/graphql']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Bounds on what an anonymous caller can make the server read (issue 31 item 3), added to every
 * route as it is registered (call after registerRouteAuthorization, before @fastify/rate-limit):
 * - a public route without a bodyLimit of its own gets PUBLIC_BODY_LIMIT;
 * - a public route taking a body without a rateLimit of its own gets `anonymousPerMinute` per
 *   address, for anonymous callers only (signed-in callers of /graphql are not throttled);
 * - a route that needs a signed-in caller answers an anonymous one sending a body 401 before reading it
 *   (the same authorizer decides, so a custom one still may let it through).
 */
export function boundPublicRoutes(app: FastifyInstance, deps: { enforce: Enforce; anonymousPerMinute: number }): void {
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { permission?: unknown; authenticated?: boolean; rateLimit?: unknown; methodNotAllowed?: boolean };
    if (config.permission || config.authenticated || config.methodNotAllowed) return;
    const url = route.url ?? route.path;
    if (route.bodyLimit === undefined && !LARGE_PUBLIC_ROUTES.has(url)) route.bodyLimit = PUBLIC_BODY_LIMIT;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (config.rateLimit === undefined && methods.some((method) => BODY_METHODS.has(method.toUpperCase()))) {
      route.config = {
        ...config,
        rateLimit: {
          max: deps.anonymousPerMinute,
          timeWindow: 60_000,
          allowList: (request: { context?: { userId: string | null } | null }) => Boolean(request.context?.userId),
        },
      } as typeof route.config;
    }
  });
  app.addHook('preParsing', async (request) => {
    if (request.context?.userId || !hasBody(request.headers)) return;
    const { permission, authenticated } = request.routeOptions.config;
    if (permission) await deps.enforce(request, permission);
    else if (authenticated) throw authenticationError(request.context);
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
