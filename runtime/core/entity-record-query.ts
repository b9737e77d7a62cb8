import { queryOptions } from '@tanstack/react-query';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import type { EntityRecord } from '../crud/prepare-record.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';

/**
 * One record by id, under the entity's detail key: a write through the console invalidates it
 * with the lists (entityQueryKeys' `all`), so a record opened again after an edit is fetched anew.
 */
export function entityRecordQuery(entity: string, entityClient: AnyEntityClient, id: string) {
  return queryOptions({
    queryKey: entityQueryKeys(entity).detail(id),
    queryFn: ({ signal }) => entityClient.findById({ id, signal }) as Promise<EntityRecord>,
  });
}
