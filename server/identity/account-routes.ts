import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityConfig } from './identity-config.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** Registration and password recovery (self-service.ts): public, so each is rate limited per address. */
export function registerAccountRoutes(app: FastifyInstance, identity: IdentityOperations, config: IdentityConfig): void {
  const { register, requestRecovery, completeRecovery } = identity;
  const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
  app.post('/api/users/register', { config: { operation: register, ...limit(config.rateLimits.register) } }, async (request, reply) => {
    const user = await register(callerOf(request), request.body);
    reply.status(201);
    return user;
  });
  app.post('/api/users/password/recovery/request', { config: { operation: requestRecovery, ...limit(config.rateLimits.recovery) } }, async (request) =>
    requestRecovery(callerOf(request), request.body),
  );
  app.post('/api/users/password/recovery/complete', { config: { operation: completeRecovery, ...limit(config.rateLimits.recovery) } }, async (request) =>
    completeRecovery(callerOf(request), request.body),
  );
}
