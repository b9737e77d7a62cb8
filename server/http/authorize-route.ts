import type { FastifyInstance } from 'fastify';
import type { RoutePermission } from './authorizer.ts';
import { accessName, type DefineOperation, type OperationAccessCheck } from '../operations/define-operation.ts';
import { callerOf } from '../operations/operation-caller.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The operation the route runs (server/operations): its access is listed here and checked by
     * the operation itself. Routes with neither this nor `permission` are public.
     */
    operation?: OperationAccessCheck;
    /**
     * Only for routes that are not an operation yet (the schema studio's): the permission they
     * need, checked before the handler by the same definer the operations use.
     */
    permission?: RoutePermission;
    /** Likewise, for a route that is not an operation yet: any signed-in caller. */
    authenticated?: boolean;
  }
}

/** The key of the one declared signed-in check. */
const SIGNED_IN = {};

/** How a route is protected, as collected at registration (tests check every route is covered). */
export interface RouteAccess {
  method: string;
  url: string;
  access: 'public' | 'authenticated' | string;
  /** The route's own Fastify schema, when it declares one (for the OpenAPI document). */
  schema?: Record<string, unknown>;
  /** The operation whose access this is (absent on public routes). */
  operation?: OperationAccessCheck;
  /** True for a route that only declares `config.permission` or `authenticated` (its check runs in a preHandler). */
  declaredOnly?: true;
}

/**
 * The list of every route and how it is protected (OpenAPI, the coverage tests, the anonymous
 * body bounds). No permission is decided here: a route's operation checks its own caller. A
 * route that only declares `config.permission` or `config.authenticated` (not an operation yet:
 * the studio's) gets that check as an operation's admission, in its own preHandler, so only those
 * routes pay for it.
 */
export function registerRouteAuthorization(app: FastifyInstance, defineOperation: DefineOperation): { routes: RouteAccess[] } {
  const routes: RouteAccess[] = [];
  const declaredChecks = new WeakMap<object, OperationAccessCheck>();
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const config = (options.config ??= {}) as { operation?: OperationAccessCheck; permission?: RoutePermission; authenticated?: boolean; methodNotAllowed?: boolean };
    // A 405 answer (method-not-allowed.ts) is no operation: not listed, nothing to authorise.
    if (config.methodNotAllowed) return;
    const declaredOnly = Boolean(config.permission || config.authenticated);
    if (declaredOnly) {
      // Several routes may share one config object (the studio's): one declared check per access.
      const key = config.permission ?? SIGNED_IN;
      let declared = declaredChecks.get(key);
      if (!declared) declaredChecks.set(key, (declared = defineOperation(config.permission ? [config.permission] : 'signedIn', async () => undefined)));
      const check = declared;
      config.operation ??= check;
      const own = options.preHandler === undefined ? [] : Array.isArray(options.preHandler) ? options.preHandler : [options.preHandler];
      options.preHandler = [async (request) => check.admit(callerOf(request)), ...own] as typeof options.preHandler;
    }
    for (const method of methods) {
      routes.push({
        method,
        url: options.url,
        access: config.operation ? accessName(config.operation.access) : 'public',
        ...(options.schema ? { schema: options.schema as Record<string, unknown> } : {}),
        ...(config.operation ? { operation: config.operation } : {}),
        ...(declaredOnly ? { declaredOnly: true as const } : {}),
      });
    }
  });
  return { routes };
}
