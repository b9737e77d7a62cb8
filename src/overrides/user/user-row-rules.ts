import { PermissionCoverage } from '../../../contract/permissions/permission-coverage.ts';
import { mayActOnUser, type DelegationRole } from '../../../contract/permissions/role-delegation.ts';
import { refId } from '../../../runtime/crud/prepare-record.ts';
import { entities } from '../../generated/entities.ts';
import { sessionStore } from '../../session/session-store.ts';

const coverage = new PermissionCoverage(entities);

/** What the user page loaded for the rule: the roles the user may read, and those it may assign. */
export interface UserRowContext {
  roles: ReadonlyArray<Record<string, unknown>>;
  assignable: ReadonlyArray<{ _id: string }>;
}

let context: UserRowContext | null = null;

/** Set by the user page once its lookups arrive, before it shows the list (user-page.tsx). */
export function setUserRowContext(next: UserRowContext | null): void {
  context = next;
}

function asDelegationRole(role: Record<string, unknown>): DelegationRole {
  return { _id: String(role._id), name: String(role.name ?? ''), permissions: Array.isArray(role.permissions) ? role.permissions.map(String) : [], childRoles: [] };
}

/**
 * Whether the signed-in user may change, reset, deactivate or delete this user (its row offers
 * Editar, Eliminar and Cambiar contraseña): the server's rule, contract/permissions/role-delegation.ts
 * mayActOnUser, with the managed roles as GET /api/roles/assignable reports them. Oneself: always
 * (the server's rule too). Before the lookups arrive, or if they failed: left to the server.
 */
export function mayActOnUserRow(row: Record<string, unknown>): boolean {
  const own = sessionStore.getState().user;
  if (!own || !context) return true;
  if (refId(row) !== null && refId(row) === (own._id ?? own.id)) return true;
  const permissions = own.role?.permissions ?? [];
  const ownRoleId = own.role?._id ?? own.role?.id ?? null;
  const targetId = refId(row.role);
  if (targetId === null) return mayActOnUser(coverage, { permissions, role: null }, null).ok;
  if (targetId === ownRoleId) return true;
  const target = context.roles.find((role) => String(role._id) === targetId);
  // A role the user may not even read is not one it holds or manages.
  if (!target) return false;
  const caller = { permissions, role: ownRoleId ? { _id: ownRoleId, childRoles: context.assignable.map((role) => role._id) } : null };
  return mayActOnUser(coverage, caller, asDelegationRole(target)).ok;
}
