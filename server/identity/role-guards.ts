import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';
import { HttpError } from '../http/http-error.ts';
import { hasPermission } from '../http/request-context.ts';

const ROLES = entities.role.storage.table;
const ROLE_ITEM = `${entities.role.api.basePath}/:id`;
const ROLE_BASE = entities.role.api.basePath;

/**
 * Rules on roles the generic CRUD cannot express:
 * - a read-only role (the seeded Admin) cannot be changed or deleted: 409 saying so;
 * - writing a role's `permissions` needs role:permissions (the field's permission in the
 *   manifest), so role:update alone cannot grant itself more rights.
 * Runs after the route's own permission check (hooks run in registration order).
 */
export function registerRoleGuards(app: FastifyInstance, database: Database): void {
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    const method = request.method;
    const writesRole = (method === 'PUT' || method === 'DELETE') && url === ROLE_ITEM;
    if (writesRole) {
      const id = (request.params as { id: string }).id;
      const row = await database.first(database.kysely.selectFrom(ROLES).select(['name', 'readonly']).where('_id', '=', id).compile());
      if (row && database.dialect.decode('boolean', row.readonly) === true) {
        throw new HttpError(409, `Role "${String(row.name)}" is read-only and cannot be changed or deleted`, { i18nMessage: 'error.readonlyRole' });
      }
    }
    if ((writesRole && method === 'PUT') || (method === 'POST' && url === ROLE_BASE)) {
      const body = request.body as Record<string, unknown> | null;
      if (body && typeof body === 'object' && 'permissions' in body && !hasPermission(request.context, 'role:permissions')) {
        throw new HttpError(403, 'Missing permission role:permissions', { i18nMessage: 'error.forbidden' });
      }
    }
  });
}
