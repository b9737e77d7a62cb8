import { permissionsGranting } from '../../contract/permissions/entity-access.ts';
import type { EntityAccess } from '../generated/entity-access.ts';

/**
 * Who may open an entity's page (and see its gallery tile): whoever may view its records, as the
 * server decides it for GET (view, :manage, or the "own" variant), or holds the permission the
 * manifest names for the route itself.
 */
export function crudRouteAccess(model: EntityAccess): string[] {
  const granting = permissionsGranting(model.permissions, 'view');
  const route = model.route?.permission;
  return route && !granting.includes(route) ? [...granting, route] : granting;
}
