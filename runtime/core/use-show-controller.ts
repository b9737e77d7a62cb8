import { useQuery } from '@tanstack/react-query';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import { entityRecordQuery } from './entity-record-query.ts';

export interface ShowControllerOptions {
  entity: string;
  entityClient: AnyEntityClient;
  /** The record to show; null waits (nothing is fetched). */
  id: string | null;
}

/** The record a show screen displays (ra-core's useShowController): loading, error and data, no UI. */
export function useShowController({ entity, entityClient, id }: ShowControllerOptions) {
  return useQuery({ ...entityRecordQuery(entity, entityClient, id ?? ''), enabled: id !== null });
}
