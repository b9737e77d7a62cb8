import type { SessionUser } from './session-types.ts';

/**
 * docs/product-rules.md#permissions: true only if the signed-in user's role permission list contains the string (exact
 * match); false with no user or role. A route or item without a permission (null) is allowed.
 */
export function userCan(user: SessionUser | null | undefined, permission: string | null | undefined): boolean {
  if (permission === null || permission === undefined || permission === '') return true;
  const permissions = user?.role?.permissions;
  return Array.isArray(permissions) && permissions.includes(permission);
}
