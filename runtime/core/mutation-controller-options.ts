import type { AnyEntityClient } from '../context/runtime-context.tsx';

/** What every write controller (create, edit, delete) is given: the entity and its client. */
export interface MutationControllerOptions {
  entity: string;
  entityClient: AnyEntityClient;
}
