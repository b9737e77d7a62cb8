import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** POST /api/users/password/change and /api/users/password/change/:userId: REST adapters of the password operations. */
export function registerPasswordRoutes(app: FastifyInstance, identity: IdentityOperations): void {
  const { changeOwnPassword, resetPassword } = identity;
  app.post('/api/users/password/change', { config: { operation: changeOwnPassword } }, async (request, reply) =>
    changeOwnPassword(callerOf(request, reply), request.body),
  );
  app.post<{ Params: { userId: string } }>('/api/users/password/change/:userId', { config: { operation: resetPassword } }, async (request) =>
    resetPassword(callerOf(request), { userId: request.params.userId, body: request.body }),
  );
}
