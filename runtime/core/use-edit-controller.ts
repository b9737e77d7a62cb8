import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EntityRecord } from '../crud/prepare-record.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { withoutSystemFields } from './crud-outcome.ts';
import { editListsOptimistically, withPatchedRecord, type Rollback } from './edit-lists-optimistically.ts';
import type { MutationControllerOptions } from './mutation-controller-options.ts';

export interface EditVariables {
  id: string;
  data: EntityRecord;
}

export interface EditControllerOptions extends MutationControllerOptions {
  /**
   * Shows the change in the cached lists before the server answers and puts them back if it
   * refuses: for small edits made in the table itself (an inline toggle), where waiting for the
   * round trip would make the control lag. The dialog's edits are not: its form holds values in
   * their edited shapes (dates as Date), which the table must not show as if they were the server's.
   */
  optimistic?: boolean;
}

/** Updates a record (ra-core's useEditController's save as a TanStack mutation), then invalidates the entity's queries. */
export function useEditController({ entity, entityClient, optimistic = false }: EditControllerOptions) {
  const queryClient = useQueryClient();
  const keys = entityQueryKeys(entity);
  return useMutation({
    mutationKey: [...keys.all, 'update'],
    mutationFn: ({ id, data }: EditVariables) => entityClient.update({ id, data: withoutSystemFields(data) }) as Promise<EntityRecord>,
    onMutate: async ({ id, data }: EditVariables): Promise<Rollback | undefined> =>
      optimistic ? editListsOptimistically(queryClient, entity, withPatchedRecord(id, withoutSystemFields(data))) : undefined,
    onError: (_error, _variables, rollback) => rollback?.(),
    // After a refusal too when the lists were edited: what the server holds replaces the guess.
    onSettled: (_data, error) => {
      if (!error || optimistic) void queryClient.invalidateQueries({ queryKey: keys.all });
    },
  });
}
