import type { EntityModelMap } from '../../contract/model/entity-model.ts';

/**
 * Every permission string the models define (entity:action, own variants such as
 * userApiKey:myView, extras such as role:permissions), sorted. GET /api/permissions answers it
 * and the seeded Admin role holds all of it.
 */
export function allPermissions(entities: EntityModelMap): string[] {
  const all = new Set<string>();
  for (const model of Object.values(entities)) for (const permission of model.permissions.all) all.add(permission);
  return [...all].sort();
}
