import { mayDo } from '../../contract/permissions/entity-access.ts';
import type { QueryClient } from '@tanstack/react-query';
import { requireProvider, type RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { entityListQuery } from '../../runtime/crud/entity-list-query.ts';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import type { Can } from '../../runtime/permissions/permissions-context.tsx';
import { loadCrudRoutePage } from './load-crud-route-page.ts';

/** A list fetched on hover this recently is not fetched again by another hover. */
const HOVER_FRESH_MS = 10_000;

/**
 * Starts what a CRUD route waits for, in parallel: its code chunk and its first list page (the
 * route's own query, so the page finds it in the cache or in flight). `whenAbsent` fetches only
 * when nothing is cached (the route entry, which renders more than once); otherwise a list older
 * than a few seconds is fetched again (link hover).
 */
export function prefetchCrudRoute(queryClient: QueryClient, services: RuntimeServices, can: Can, model: ClientEntityModel, options: { whenAbsent?: boolean } = {}): void {
  void loadCrudRoutePage();
  if (!mayDo(can, model.permissions, 'view')) return;
  const list = entityListQuery(model, requireProvider(services, model.name));
  // A failed prefetch is the page's to report when its own query runs.
  queryClient.prefetchQuery({ ...list, staleTime: options.whenAbsent ? Infinity : HOVER_FRESH_MS }).catch(() => undefined);
}
