import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { hasPermission, type RequestContext } from '../http/request-context.ts';
import { system } from '../entities/system-context.ts';
import { allPermissions } from './permission-catalog.ts';
import { PermissionCoverage } from './permission-coverage.ts';
import { assignableRoles, type DelegationRole } from '../../contract/permissions/role-delegation.ts';

import type { ListQuery } from '../entities/list-query.ts';

/** Role and tenant lookups fetch full lists (docs/product-rules.md#constants); limit 0 means no limit. */
const FULL_LIST: ListQuery = { limit: 0, offset: 0, orderBy: 'name', order: 'asc', search: null, filters: [] };

/**
 * The lookups forms need (docs/product-rules.md#calls): every permission string, the role list and
 * the tenant list. Any signed-in caller may ask (identity-operations.ts); what they get depends on
 * who they are (README: "Lookups"): each lookup narrows to what the caller may see.
 */
export interface Directory {
  permissions(): string[];
  rolesAll(context: RequestContext): Promise<Record<string, unknown>[]>;
  /** The roles the caller may give a user (contract/permissions/role-delegation.ts): what role pickers offer. */
  rolesAssignable(context: RequestContext): Promise<Record<string, unknown>[]>;
  tenantsAll(context: RequestContext): Promise<Record<string, unknown>[]>;
}

export function createDirectory(deps: { service: EntityService; entities: EntityModelMap }): Directory {
  const { service } = deps;
  const permissions = allPermissions(deps.entities);
  const coverage = new PermissionCoverage(deps.entities);
  return {
    permissions: () => permissions,
    // role:view or role:manage: every role. Otherwise the child roles of the caller's own role
    // (the roles they may hand out), or nothing.
    async rolesAll(context) {
      const all = await listAll(service, 'role');
      if (hasPermission(context, 'role:view') || hasPermission(context, 'role:manage')) return all;
      const own = all.find((role) => role._id === context.roleId);
      const children = new Set(((own?.childRoles ?? []) as { _id: string }[]).map((child) => child._id));
      return all.filter((role) => children.has(String(role._id)));
    },
    async rolesAssignable(context) {
      const all = await listAll(service, 'role');
      const own = all.find((role) => role._id === context.roleId);
      const caller = { permissions: context.permissions, role: own ? delegationRole(own) : null };
      const offered = new Set(assignableRoles(coverage, caller, all.map(delegationRole)).map((role) => role._id));
      // Name and id only: the caller may not read roles' permissions (role:view).
      return all.filter((role) => offered.has(String(role._id))).map((role) => ({ _id: role._id, name: role.name }));
    },
    // Tenant users: their own tenant. Platform users (no tenant) who administer tenants or users:
    // all of them. Others: none.
    async tenantsAll(context) {
      if (context.tenantId !== null) return service.findByIds('tenant', system(), [context.tenantId]);
      return mayListTenants(context) ? listAll(service, 'tenant') : [];
    },
  };
}

/** A role record as the delegation rule reads it (childRoles come populated or as ids). */
function delegationRole(role: Record<string, unknown>): DelegationRole {
  const ids = (Array.isArray(role.childRoles) ? role.childRoles : []).map((child) => (child && typeof child === 'object' ? String((child as { _id?: unknown })._id) : String(child)));
  return { _id: String(role._id), name: String(role.name ?? ''), permissions: Array.isArray(role.permissions) ? role.permissions.map(String) : [], childRoles: ids, readonly: role.readonly === true };
}

function mayListTenants(context: RequestContext): boolean {
  return ['tenant:view', 'tenant:manage', 'user:view', 'user:manage', 'user:create', 'user:update'].some((p) => hasPermission(context, p));
}

function listAll(service: EntityService, entity: string) {
  // Read on the caller's behalf by the rules above (a caller without role:view still sees the roles it may hand out).
  return service.find(entity, system(), FULL_LIST);
}
