import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** POST /api/google/login and /api/google/logout: REST adapters of the Google sign-in operations. */
export function registerGoogleRoutes(app: FastifyInstance, identity: IdentityOperations): void {
  const { googleSignIn, signOut } = identity;
  app.post('/api/google/login', { config: { operation: googleSignIn } }, async (request, reply) => googleSignIn(callerOf(request, reply), request.body));
  app.post('/api/google/logout', { config: { operation: signOut } }, async (request) => signOut(callerOf(request), undefined));
}
