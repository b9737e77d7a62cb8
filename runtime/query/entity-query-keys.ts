import type { FindQuery, ListQuery } from '../clients/queries.ts';

/** Query params without the abort signal, which never belongs in a cache key. */
type KeyParams<Q> = Omit<Q, 'signal'>;

/**
 * TanStack Query key factory for one entity: every key starts with ['entity', name] so a mutation
 * invalidates all of an entity's lists, details and lookups with one call.
 */
export function entityQueryKeys(entity: string) {
  const all = ['entity', entity] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (query: KeyParams<ListQuery>) => [...all, 'list', query] as const,
    finds: (query: KeyParams<FindQuery>) => [...all, 'find', query] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
    byIds: (ids: readonly string[]) => [...all, 'ids', [...ids].sort()] as const,
    search: (text: string) => [...all, 'search', text] as const,
  };
}

export type EntityQueryKeys = ReturnType<typeof entityQueryKeys>;
