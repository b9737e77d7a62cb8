import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import { permissionsGranting } from '../../contract/permissions/entity-access.ts';

/**
 * What an action on an entity requires, for every transport (REST routes, GraphQL resolvers):
 * the model's permission for it, or the entity's :manage, or its "own" variant where one exists.
 */
export function routePermission(model: EntityModel, action: RoutePermission['action']): RoutePermission {
  const [permission, ...alternatives] = permissionsGranting(model.permissions, action);
  return { entity: model.name, action, permission, alternatives };
}
