import type { EntityService } from '../entities/entity-service.ts';

/**
 * The user list's export sends filters as `field,operator,value` (commas) where every other list
 * uses `field;operator;value` (docs/product-rules.md#calls). An `exportQuery` hook of the user entity rewrites the
 * comma form to the usual one before the generic export parses it (REST and GraphQL alike);
 * filters already using ';' pass unchanged.
 */
export function registerUsersExportFilters(service: EntityService): void {
  if (!service.definitions.user) return;
  service.hooks.add('user', {
    exportQuery(query) {
      if (typeof query.filters !== 'string') return query;
      const filters = query.filters
        .split('|')
        .map((part) => (part.includes(';') ? part : part.replace(',', ';').replace(',', ';')))
        .join('|');
      return { ...query, filters };
    },
  });
}
