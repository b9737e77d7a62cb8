/** One editor group: the prefix before the colon, or 'general' for permissions without one. */
export interface PermissionGroup {
  name: string;
  permissions: string[];
}

export const GENERAL_GROUP = 'general';

/** docs/product-rules.md#entities Role: permissions grouped by the prefix before the colon; 'general' for the rest (last). */
export function groupPermissions(permissions: readonly string[]): PermissionGroup[] {
  const groups = new Map<string, string[]>();
  for (const permission of [...new Set(permissions)]) {
    const colon = permission.indexOf(':');
    const name = colon > 0 ? permission.slice(0, colon) : GENERAL_GROUP;
    (groups.get(name) ?? groups.set(name, []).get(name)!).push(permission);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === GENERAL_GROUP ? 1 : b === GENERAL_GROUP ? -1 : a.localeCompare(b)))
    .map(([name, list]) => ({ name, permissions: list }));
}

/** GET /api/permissions as a list of strings, whatever the envelope ([...], {permissions}, {items}, [{name}]). */
export function normalisePermissions(body: unknown): string[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? ((body as Record<string, unknown>).permissions ?? (body as Record<string, unknown>).items) : null;
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => (typeof item === 'string' ? item : item && typeof item === 'object' ? ((item as Record<string, unknown>).name ?? (item as Record<string, unknown>).permission ?? (item as Record<string, unknown>).key) : null))
    .filter((item): item is string => typeof item === 'string' && item !== '');
}

/** Role name rule of the manifest: required, starts with an uppercase letter. */
export function roleNameError(name: string): string | null {
  if (name.trim() === '') return 'validation.required';
  return /^[A-Z]/.test(name.trim()) ? null : 'validation.uppercase';
}

/** Actions with a translation under role.permissionAction; others show their raw name. */
const KNOWN_ACTIONS = new Set(['manage', 'view', 'create', 'update', 'delete', 'permissions', 'myView', 'myCreate']);

/**
 * The i18n keys (with their fallback text) that name a permission for people: the group as its
 * entity's plural ("Bots") and the action as a verb ("Ver"). A permission the console has no words
 * for (added by a newer server) keeps its key, which the editor shows as secondary text anyway.
 */
export function permissionLabelKeys(group: string, permission: string): { group: string[]; action: string[] } {
  const action = group === GENERAL_GROUP ? permission : permission.slice(group.length + 1);
  return {
    group: group === GENERAL_GROUP ? ['role.permissionGroup.general'] : [`entity.${group}.plural`, group],
    action: KNOWN_ACTIONS.has(action) ? [`role.permissionAction.${action}`] : [action],
  };
}
