import { lazy } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRuntime } from '../../runtime/context/runtime-context.tsx';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import { useCan } from '../../runtime/permissions/permissions-context.tsx';
import { loadCrudRoutePage } from './load-crud-route-page.ts';
import { EntityErrorBoundary } from '../../runtime/errors/entity-error-boundary.tsx';
import { prefetchCrudRoute } from './prefetch-crud-route.ts';

const CrudRoutePage = lazy(loadCrudRoutePage);

/**
 * The element of a /crud/* route. It lives in the entry chunk so the list request starts while the
 * page's chunk loads, instead of after it (the two were the route's critical path, one after the other).
 */
export function CrudRoute({ model }: { model: ClientEntityModel }) {
  // In render, like TanStack's usePrefetchQuery: the lazy page below suspends, so no effect of
  // this component would run before its chunk arrived.
  prefetchCrudRoute(useQueryClient(), useRuntime(), useCan(), model, { whenAbsent: true });
  // A page that throws shows a panel naming its entity, not a blank console; keyed so the next entity starts clean.
  return (
    <EntityErrorBoundary key={model.name} entity={model.name}>
      <CrudRoutePage model={model} />
    </EntityErrorBoundary>
  );
}
