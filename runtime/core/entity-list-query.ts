import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { ListQuery } from '../clients/queries.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { activeFilters, effectiveSort, initialTableState, type TableState } from '../table/table-state.ts';

/**
 * The list parameters of a table state (page, size, sort, search, filters). With no sort chosen
 * the manifest's default sort is sent explicitly: the request says what the table shows, and an
 * export of the page comes in the same order.
 */
export function entityListParams(model: ClientEntityModel, table: TableState = initialTableState()): Omit<ListQuery, 'signal'> {
  const sort = effectiveSort(table.sort, model.table.defaultSort);
  return {
    page: table.page,
    limit: table.pageSize,
    orderBy: sort.field,
    order: sort.order,
    search: table.search || undefined,
    filters: activeFilters(model.filters, table.filterValues),
  };
}

/**
 * How long a fetched list page is fresh. Without it the page's own query found the page the route
 * entry had just prefetched already stale, and asked for it again: every list loaded twice on open.
 * Writes through the console invalidate the list (a refetch whatever its age), so this only spares
 * repeated reads of what was just read.
 */
export const LIST_FRESH_MS = 10_000;

/**
 * The list request of a CRUD page. One definition for the page and for whoever prefetches its
 * first page (route entry, link hover), so both share one cache entry and one request.
 */
export function entityListQuery(model: ClientEntityModel, entityClient: AnyEntityClient, params = entityListParams(model)) {
  return queryOptions({
    queryKey: entityQueryKeys(model.name).list(params),
    queryFn: ({ signal }) => entityClient.paginate({ ...params, signal }),
    placeholderData: keepPreviousData,
    staleTime: LIST_FRESH_MS,
  });
}
