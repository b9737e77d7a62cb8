import type { QueryClient } from '@tanstack/react-query';
import type { Paginated } from '../clients/queries.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import type { EntityRecord } from '../crud/prepare-record.ts';

/** Puts every cached list page of the entity back as it was before the optimistic edit. */
export type Rollback = () => void;

/**
 * Applies `edit` to every cached list page of `entity` at once, so the table shows a write before
 * the server confirms it (a deleted row gone, a toggled switch flipped), and returns how to undo
 * it when the server refuses. Lists being fetched are cancelled first: an answer from before the
 * write must not land over the edit. The caller invalidates the lists when the write settles,
 * which replaces the guess with the server's truth either way.
 */
export async function editListsOptimistically(
  queryClient: QueryClient,
  entity: string,
  edit: (page: Paginated<EntityRecord>) => Paginated<EntityRecord>,
): Promise<Rollback> {
  const lists = entityQueryKeys(entity).lists();
  await queryClient.cancelQueries({ queryKey: lists });
  const before = queryClient.getQueriesData<Paginated<EntityRecord>>({ queryKey: lists });
  queryClient.setQueriesData<Paginated<EntityRecord>>({ queryKey: lists }, (page) => (page ? edit(page) : page));
  return () => {
    for (const [key, page] of before) queryClient.setQueryData(key, page);
  };
}

/** The page without the record `id` (and its total one less when it was there). */
export function withoutRecord(id: string): (page: Paginated<EntityRecord>) => Paginated<EntityRecord> {
  return (page) => {
    const items = page.items.filter((item) => item._id !== id);
    return items.length === page.items.length ? page : { ...page, items, total: Math.max(0, page.total - 1) };
  };
}

/** The page with `patch` merged into the record `id`. */
export function withPatchedRecord(id: string, patch: EntityRecord): (page: Paginated<EntityRecord>) => Paginated<EntityRecord> {
  return (page) => (page.items.some((item) => item._id === id) ? { ...page, items: page.items.map((item) => (item._id === id ? { ...item, ...patch } : item)) } : page);
}
