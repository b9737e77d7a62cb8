import { useMutation, useQueryClient } from '@tanstack/react-query';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { editListsOptimistically, withoutRecord, type Rollback } from './edit-lists-optimistically.ts';
import type { MutationControllerOptions } from './mutation-controller-options.ts';

/**
 * Deletes a record (ra-core's useDeleteController as a TanStack mutation), optimistically: the row
 * leaves every cached list page at once and comes back if the server refuses (a record still
 * referenced answers 409, docs/product-rules.md#errors). Success invalidates the entity's queries.
 */
export function useDeleteController({ entity, entityClient }: MutationControllerOptions) {
  const queryClient = useQueryClient();
  const keys = entityQueryKeys(entity);
  return useMutation({
    mutationKey: [...keys.all, 'delete'],
    mutationFn: ({ id }: { id: string }) => entityClient.delete({ id }),
    onMutate: ({ id }): Promise<Rollback> => editListsOptimistically(queryClient, entity, withoutRecord(id)),
    onError: (_error, _variables, rollback) => rollback?.(),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
