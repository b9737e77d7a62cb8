import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AnyEntityProvider } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { ListQuery } from '../providers/queries.ts';
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
