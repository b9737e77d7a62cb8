import { crudRouteAccess } from '../crud-route-access.ts';
import { entityAccess } from '../../generated/entity-access.ts';

/** Whether the user may open the API-key page (the route's rule: view, manage or the own variant). */
export function ownApiKeysAllowed(can: (permission: string) => boolean): boolean {
  return crudRouteAccess(entityAccess.userApiKey).some(can);
}
