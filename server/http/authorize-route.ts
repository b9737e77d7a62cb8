import type { FastifyInstance } from 'fastify';
import type { Authorizer, RoutePermission } from './authorizer.ts';
import { HttpError } from './http-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission the route needs; routes without one are public (health, files). */
    permission?: RoutePermission;
  }
}

/**
 * The single place permissions are enforced: every route declares what it needs in its config
 * and this preHandler asks the authorizer before the handler runs.
 */
export function registerRouteAuthorization(app: FastifyInstance, authorizer: Authorizer): void {
  app.addHook('preHandler', async (request) => {
    const required = request.routeOptions.config.permission;
    if (!required) return;
    const result = await authorizer({ request, context: request.context, required });
    if (result === 'allow') return;
    if (result === 'unauthenticated') throw new HttpError(401, 'Authentication required');
    throw new HttpError(403, `Missing permission ${required.permission}`);
  });
}
