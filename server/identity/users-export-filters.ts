import type { FastifyInstance } from 'fastify';
import { entities } from '../generated/entities.ts';

const USERS_EXPORT = `${entities.user.api.basePath}/export`;

/**
 * The user list's export sends filters as `field,operator,value` (commas) where every other list
 * uses `field;operator;value` (spec §7). This rewrites the comma form to the usual one before the
 * generic export parses it; filters already using ';' pass unchanged.
 */
export function registerUsersExportFilters(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' || request.routeOptions.url !== USERS_EXPORT) return;
    const query = request.query as Record<string, unknown>;
    if (typeof query.filters !== 'string') return;
    query.filters = query.filters
      .split('|')
      .map((part) => (part.includes(';') ? part : part.replace(',', ';').replace(',', ';')))
      .join('|');
  });
}
