import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** POST /api/auth/login and GET /api/auth/me: REST adapters of the sign-in and current-user operations. */
export function registerAuthRoutes(app: FastifyInstance, identity: IdentityOperations): void {
  const { signIn, me } = identity;
  app.post('/api/auth/login', { config: { operation: signIn } }, async (request, reply) => signIn(callerOf(request, reply), request.body));
  app.get('/api/auth/me', { config: { operation: me } }, async (request) => me(callerOf(request), undefined));
}
