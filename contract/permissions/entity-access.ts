/**
 * The one permission rule of an entity action, run by the server to enforce it and by the console
 * to decide what to show (docs/product-rules.md#permissions, plus: an entity's :manage implies view, create, update and
 * delete of that entity). Code shared by server/ and the console lives under contract/: it may not
 * import from either side.
 */

/** An entity's permission names, as the manifest model gives them. */
export interface EntityPermissionNames {
  manage: string;
  view: string;
  viewOwn: string | null;
  create: string;
  createOwn: string | null;
  update: string;
  delete: string;
}

export type EntityAction = 'view' | 'create' | 'update' | 'delete';

/** Answers whether the caller holds one permission string. */
export type Holds = (permission: string) => boolean;

/**
 * The permissions any one of which allows `action`: the action's own, the entity's :manage, and
 * for view / create the "own" variant (API keys' myView / myCreate), with which the server narrows
 * the caller to their own records.
 */
export function permissionsGranting(names: EntityPermissionNames, action: EntityAction): [string, ...string[]] {
  const own = action === 'view' ? names.viewOwn : action === 'create' ? names.createOwn : null;
  return [names[action], names.manage, ...(own ? [own] : [])];
}

/** Whether a caller holding these permissions may do `action` on the entity. */
export function mayDo(holds: Holds, names: EntityPermissionNames, action: EntityAction): boolean {
  return permissionsGranting(names, action).some(holds);
}
