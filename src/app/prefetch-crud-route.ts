import { mayDo } from '../../contract/permissions/entity-access.ts';
import type { QueryClient } from '@tanstack/react-query';
import { requireEntityClient, type RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { LIST_FRESH_MS, entityListParams, entityListQuery } from '../../runtime/core/entity-list-query.ts';
import { filtersFromSearch } from '../../runtime/crud/location-filters.ts';
import { initialTableState } from '../../runtime/table/table-state.ts';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import type { Can } from '../../runtime/permissions/permissions-context.tsx';
import { loadCrudRoutePage } from './load-crud-route-page.ts';


/**
 * Starts what a CRUD route waits for, in parallel: its code chunk and its first list page (the
 * route's own query, so the page finds it in the cache or in flight). `whenAbsent` fetches only
 * when nothing is cached (the route entry, which renders more than once); otherwise a list older
 * than a few seconds is fetched again (link hover).
 */
export function prefetchCrudRoute(queryClient: QueryClient, services: RuntimeServices, can: Can, model: ClientEntityModel, options: { whenAbsent?: boolean } = {}): void {
  void loadCrudRoutePage();
  if (!mayDo(can, model.permissions, 'view')) return;
  // The route entry asks for the list the page will show: with the filters its address carries
  // (?filter.<field>=), else the page's own query would differ and ask again. A hovered link
  // leads to the plain list.
  const filterValues = options.whenAbsent && typeof window !== 'undefined' ? filtersFromSearch(model, window.location.search) : {};
  const list = entityListQuery(model, requireEntityClient(services, model.name), entityListParams(model, initialTableState({ filterValues })));
  // A failed prefetch is the page's to report when its own query runs.
  queryClient.prefetchQuery({ ...list, staleTime: options.whenAbsent ? Infinity : LIST_FRESH_MS }).catch(() => undefined);
}
