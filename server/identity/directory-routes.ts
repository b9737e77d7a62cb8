import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** GET /api/permissions, /api/roles/all, /api/roles/assignable, /api/tenants/all: REST adapters of the lookups (directory.ts). */
export function registerDirectoryRoutes(app: FastifyInstance, identity: IdentityOperations): void {
  const { permissions, rolesAll, rolesAssignable, tenantsAll } = identity;
  app.get('/api/permissions', { config: { operation: permissions } }, async (request) => permissions(callerOf(request), undefined));
  app.get('/api/roles/all', { config: { operation: rolesAll } }, async (request) => rolesAll(callerOf(request), undefined));
  app.get('/api/roles/assignable', { config: { operation: rolesAssignable } }, async (request) => rolesAssignable(callerOf(request), undefined));
  app.get('/api/tenants/all', { config: { operation: tenantsAll } }, async (request) => tenantsAll(callerOf(request), undefined));
}
