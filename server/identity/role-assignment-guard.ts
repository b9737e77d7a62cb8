import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';
import { HttpError } from '../http/http-error.ts';
import { hasPermission } from '../http/request-context.ts';

const ROLES = entities.role.storage.table;
const USERS_BASE = entities.user.api.basePath;
const USER_ITEM = `${USERS_BASE}/:id`;

/**
 * Which roles a caller may give a user (POST/PUT /api/users with a `role`): with role:view or
 * role:manage, any; otherwise their own role (no gain) or one of its child roles — the child
 * roles are what GET /api/roles/all offers them. Without it, a tenant administrator holding user:create could
 * hand out the Admin role and gain every permission.
 */
export function registerRoleAssignmentGuard(app: FastifyInstance, database: Database): void {
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    if (!((request.method === 'POST' && url === USERS_BASE) || (request.method === 'PUT' && url === USER_ITEM))) return;
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || body.role === undefined || body.role === null || body.role === '') return;
    const context = request.context;
    if (hasPermission(context, 'role:view') || hasPermission(context, 'role:manage')) return;
    const wanted = typeof body.role === 'object' ? String((body.role as { _id?: unknown; id?: unknown })._id ?? (body.role as { id?: unknown }).id) : String(body.role);
    if (wanted === context.roleId) return;
    const own = context.roleId
      ? await database.first(database.kysely.selectFrom(ROLES).select('childRoles').where('_id', '=', context.roleId).compile())
      : undefined;
    const children = database.dialect.decode('json', own?.childRoles);
    if (Array.isArray(children) && children.map(String).includes(wanted)) return;
    throw new HttpError(403, 'You may only assign your own role or its child roles', { i18nMessage: 'error.forbidden' });
  });
}
