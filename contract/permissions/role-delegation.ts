/**
 * Role delegation (issue 27 item 3): the one rule for which roles a caller may give a user, and
 * which users and roles it may change. The server enforces it (server/identity/access-rules.ts,
 * directory.ts) and the console offers exactly what it allows (role pickers, row actions),
 * both calling these functions.
 *
 * - An administrator (holds every permission) may assign every role.
 * - Anyone else may assign exactly the managed roles (`childRoles`) of its own role, except an
 *   administrator role: that is only ever handed out by an administrator. A managed role may
 *   hold permissions the caller lacks: whoever listed it held them (access-rules.ts checks that
 *   when childRoles change) and delegated exactly that.
 * - A caller may change or delete a role only when it holds every permission of that role and
 *   the role is not read-only; it may act on a user whose role it holds (covers) or manages.
 */
import type { PermissionCoverage } from './permission-coverage.ts';

export interface DelegationRole {
  _id: string;
  name?: string;
  permissions: readonly string[];
  /** Ids of the roles this role manages. */
  childRoles: readonly string[];
  readonly?: boolean;
}

export interface Delegator {
  /** The caller's own permissions. */
  permissions: readonly string[];
  /** The caller's own role (its childRoles are the managed roles), or null. */
  role: Pick<DelegationRole, '_id' | 'childRoles'> | null;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

const OK: Verdict = { ok: true };

/** Whether `caller` may give a user `role` (create, or change a user's role to it). */
export function mayAssignRole(coverage: PermissionCoverage, caller: Delegator, role: DelegationRole): Verdict {
  if (coverage.isFullAdmin(caller.permissions)) return OK;
  const name = role.name ?? role._id;
  if (coverage.isFullAdmin(role.permissions)) return { ok: false, reason: `Role "${name}" holds every permission: only an administrator may assign it` };
  if (caller.role?.childRoles.includes(role._id)) return OK;
  return { ok: false, reason: `Role "${name}" is not one of the roles your role manages; you may only assign those` };
}

/** The roles `caller` may assign, in the order given: what role pickers offer. */
export function assignableRoles<R extends DelegationRole>(coverage: PermissionCoverage, caller: Delegator, roles: readonly R[]): R[] {
  return roles.filter((role) => mayAssignRole(coverage, caller, role).ok);
}

/** Whether `caller` may edit or delete `role`: it holds all of its permissions and the role is not read-only. */
export function mayChangeRole(coverage: PermissionCoverage, caller: Pick<Delegator, 'permissions'>, role: Pick<DelegationRole, 'permissions' | 'readonly' | 'name'>): Verdict {
  const missing = coverage.missing(caller.permissions, role.permissions);
  if (missing.length > 0) return { ok: false, reason: `Role "${role.name ?? ''}" holds permissions you do not (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''})` };
  if (role.readonly === true) return { ok: false, reason: `Role "${role.name ?? ''}" is read-only` };
  return OK;
}

/**
 * Whether `caller` may add `role` to a role's managed roles (childRoles): only a role whose
 * permissions it holds itself, else it could list Admin under its own role and then assign it.
 * What the role editor's child-role picker offers; access-rules.ts refuses anything else.
 */
export function mayAddChildRole(coverage: PermissionCoverage, caller: Pick<Delegator, 'permissions'>, role: Pick<DelegationRole, 'permissions' | 'name'>): Verdict {
  const missing = coverage.missing(caller.permissions, role.permissions);
  if (missing.length === 0) return OK;
  return { ok: false, reason: `Role "${role.name ?? ''}" holds permissions you do not (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}); it cannot be a child role you set` };
}

/**
 * Whether `caller` may change, reset, deactivate or delete a user holding `targetRole` (null: no
 * role): one whose permissions it holds itself, or whose role it manages (never an administrator).
 */
export function mayActOnUser(coverage: PermissionCoverage, caller: Delegator, targetRole: DelegationRole | null): Verdict {
  const permissions = targetRole?.permissions ?? [];
  if (coverage.missing(caller.permissions, permissions).length === 0) return OK;
  if (targetRole && mayAssignRole(coverage, caller, targetRole).ok) return OK;
  return { ok: false, reason: `holds permissions you do not (${coverage.missing(caller.permissions, permissions).slice(0, 5).join(', ')})` };
}
