import { PermissionCoverage } from '../../../contract/permissions/permission-coverage.ts';
import { mayAddChildRole, mayChangeRole } from '../../../contract/permissions/role-delegation.ts';
import { entities } from '../../generated/entities.ts';
import { sessionStore } from '../../session/session-store.ts';
import { isSeededAdminRole } from './seeded-admin-role.ts';

const coverage = new PermissionCoverage(entities);

/** The signed-in user's permissions (what the server's rule compares with). */
function ownPermissions(): string[] {
  return sessionStore.getState().user?.role?.permissions ?? [];
}

/**
 * Whether the signed-in user may change (or, `deleting`, delete) this role: the server's rule,
 * contract/permissions/role-delegation.ts. A row without its permissions (a caller without
 * role:permissions does not receive them) is left to the server.
 */
export function mayChangeRoleRow(record: Record<string, unknown>, deleting: boolean): boolean {
  if (isSeededAdminRole(record)) return false;
  const permissions = Array.isArray(record.permissions) ? record.permissions.map(String) : [];
  // Read-only roles may be unlocked (edit), never deleted.
  const verdict = mayChangeRole(coverage, { permissions: ownPermissions() }, { name: String(record.name ?? ''), permissions, readonly: deleting && record.readonly === true });
  return verdict.ok;
}

/**
 * Whether the dialog offers Guardar for this role: a role the user may change that is not
 * read-only (docs/product-rules.md#entities: read-only roles offer no submit; unlocking has its own button in the form).
 */
export function maySubmitRole(record: Record<string, unknown>): boolean {
  return record.readonly !== true && mayChangeRoleRow(record, false);
}

/**
 * Whether the child-role picker offers this role: the server's rule (mayAddChildRole). A role
 * read without its permissions (the user lacks role:permissions) is left to the server.
 */
export function mayOfferChildRole(record: Record<string, unknown>): boolean {
  if (!Array.isArray(record.permissions)) return true;
  return mayAddChildRole(coverage, { permissions: ownPermissions() }, { name: String(record.name ?? ''), permissions: record.permissions.map(String) }).ok;
}
