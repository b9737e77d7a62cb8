import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EntityRecord } from '../crud/prepare-record.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { withoutSystemFields } from './crud-outcome.ts';
import type { MutationControllerOptions } from './mutation-controller-options.ts';

/**
 * Creates a record (ra-core's useCreateController as a TanStack mutation). On success every list,
 * detail and lookup of the entity is invalidated: where the new record lands in a sorted,
 * filtered page is the server's to say, so nothing is guessed optimistically.
 */
export function useCreateController({ entity, entityClient }: MutationControllerOptions) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...entityQueryKeys(entity).all, 'create'],
    mutationFn: (data: EntityRecord) => entityClient.create({ data: withoutSystemFields(data) }) as Promise<EntityRecord>,
    // Not awaited: the dialog closes as soon as the server confirms, the list follows.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: entityQueryKeys(entity).all }),
  });
}
