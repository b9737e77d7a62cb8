import type { FastifyInstance } from 'fastify';
import { accessName, type OperationAccessCheck } from '../operations/define-operation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The operation the route runs (server/operations): its access is listed here and checked by
     * the operation itself. Routes without one are public.
     */
    operation?: OperationAccessCheck;
  }
}

/** How a route is protected, as collected at registration (tests check every route is covered). */
export interface RouteAccess {
  method: string;
  url: string;
  access: 'public' | 'authenticated' | string;
  /** The route's own Fastify schema, when it declares one (for the OpenAPI document). */
  schema?: Record<string, unknown>;
  /** The operation whose access this is (absent on public routes). */
  operation?: OperationAccessCheck;
}

/**
 * The list of every route and how it is protected (OpenAPI, the coverage tests, the anonymous
 * body bounds). No permission is decided here: a route's operation checks its own caller. A route
 * that declares an access of its own (`config.permission`, `config.authenticated`, as routes did
 * before operations) is refused when registered, so no transport can decide access again.
 */
export function registerRouteAuthorization(app: FastifyInstance): { routes: RouteAccess[] } {
  const routes: RouteAccess[] = [];
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const config = (options.config ??= {}) as { operation?: OperationAccessCheck; permission?: unknown; authenticated?: unknown; methodNotAllowed?: boolean };
    // A 405 answer (method-not-allowed.ts) is no operation: not listed, nothing to authorise.
    if (config.methodNotAllowed) return;
    if (config.permission !== undefined || config.authenticated !== undefined) {
      throw new Error(
        `${methods.join(',')} ${options.url} declares config.${config.permission !== undefined ? 'permission' : 'authenticated'}: routes no longer decide access. ` +
          'Define an operation with deps.defineOperation(access, work) and name it in config.operation (server/operations/README.md)',
      );
    }
    for (const method of methods) {
      routes.push({
        method,
        url: options.url,
        access: config.operation ? accessName(config.operation.access) : 'public',
        ...(options.schema ? { schema: options.schema as Record<string, unknown> } : {}),
        ...(config.operation ? { operation: config.operation } : {}),
      });
    }
  });
  return { routes };
}
