import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AnyEntityProvider } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { ListQuery } from '../providers/queries.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { activeFilters, initialTableState, type TableState } from '../table/table-state.ts';

/** The list parameters of a table state (page, size, sort, search, filters). */
export function entityListParams(model: ClientEntityModel, table: TableState = initialTableState()): Omit<ListQuery, 'signal'> {
  return {
    page: table.page,
    limit: table.pageSize,
    orderBy: table.sort?.field,
    order: table.sort?.order,
    search: table.search || undefined,
    filters: activeFilters(model.filters, table.filterValues),
  };
}

/**
 * The list request of a CRUD page. One definition for the page and for whoever prefetches its
 * first page (route entry, link hover), so both share one cache entry and one request.
 */
export function entityListQuery(model: ClientEntityModel, provider: AnyEntityProvider, params = entityListParams(model)) {
  return queryOptions({
    queryKey: entityQueryKeys(model.name).list(params),
    queryFn: ({ signal }) => provider.paginate({ ...params, signal }),
    placeholderData: keepPreviousData,
  });
}
