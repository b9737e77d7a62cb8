import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authorizer, RoutePermission } from './authorizer.ts';
import { authenticationError } from './authentication-error.ts';
import { authorizeOperation } from '../entities/operations/authorize-operation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission the route needs; routes with neither this nor `authenticated` are public. */
    permission?: RoutePermission;
    /** Any signed-in caller may run the route (own profile, own password, uploads). */
    authenticated?: boolean;
    /** The route's operation checks `permission` itself (server/entities/operations): not checked again here. */
    accessCheckedByOperation?: boolean;
  }
}

/** How a route is protected, as collected at registration (tests check every route is covered). */
export interface RouteAccess {
  method: string;
  url: string;
  access: 'public' | 'authenticated' | string;
  /** The route's own Fastify schema, when it declares one (for the OpenAPI document). */
  schema?: Record<string, unknown>;
}

/** Checks one permission for a request; throws the 401/403 the REST routes answer with. */
export type Enforce = (request: FastifyRequest, required: RoutePermission) => Promise<void>;

export interface RouteAuthorization {
  /** Every route registered so far and how it is protected. */
  routes: RouteAccess[];
  /** The same check, for transports that are not one route per operation (GraphQL). */
  enforce: Enforce;
}

/**
 * Routes owned by other modules that need a signed-in caller but declare nothing themselves.
 * Uploads (POST /api/file[/:dir]) write to the server's disk, so anonymous callers may not; any
 * signed-in user may, because every entity form with a file field uploads first (no single
 * entity permission fits). Keyed by "METHOD url" as Fastify registers it.
 */
const SIGNED_IN_ROUTES: Record<string, true> = {
  'POST /api/file': true,
  'POST /api/file/:dir': true,
};

/**
 * The single place permissions are enforced: every route declares what it needs in its config
 * and this preHandler asks the authorizer before the handler runs.
 */
export function registerRouteAuthorization(app: FastifyInstance, authorizer: Authorizer): RouteAuthorization {
  const routes: RouteAccess[] = [];
  const enforce: Enforce = (request, required) => authorizeOperation(authorizer, { context: request.context, request }, required);
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const config = (options.config ??= {}) as { permission?: RoutePermission; authenticated?: boolean; methodNotAllowed?: boolean };
    // A 405 answer (method-not-allowed.ts) is no operation: not listed, nothing to authorise.
    if (config.methodNotAllowed) return;
    for (const method of methods) {
      if (SIGNED_IN_ROUTES[`${method} ${options.url}`]) config.authenticated = true;
      routes.push({
        method,
        url: options.url,
        access: config.permission ? config.permission.permission : config.authenticated ? 'authenticated' : 'public',
        ...(options.schema ? { schema: options.schema as Record<string, unknown> } : {}),
      });
    }
  });
  app.addHook('preHandler', async (request) => {
    const { permission: required, authenticated, accessCheckedByOperation } = request.routeOptions.config;
    if (accessCheckedByOperation) return;
    if (!required) {
      if (authenticated && request.context.userId === null) throw authenticationError(request.context);
      return;
    }
    await enforce(request, required);
  });
  return { routes, enforce };
}
