import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';

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
 * - a route whose operation is not public answers an anonymous caller sending a body with the
 *   operation's own admission (its 401, or whatever a custom authorizer decides) before reading it.
 */
export function boundPublicRoutes(app: FastifyInstance, deps: { anonymousPerMinute: number }): void {
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { operation?: { access: unknown }; rateLimit?: unknown; methodNotAllowed?: boolean };
    if ((config.operation && config.operation.access !== 'public') || config.methodNotAllowed) return;
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
    const { operation } = request.routeOptions.config;
    if (operation && operation.access !== 'public') await operation.admit(callerOf(request));
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
