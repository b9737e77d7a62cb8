import type { Database } from '../db/database.ts';
import type { EntityRecord, EntityService, WriteEvent } from '../entities/entity-service.ts';
import { isSystemContext } from '../entities/system-context.ts';
import { HttpError } from '../http/http-error.ts';
import { hasPermission, type RequestContext } from '../http/request-context.ts';
import type { PermissionCoverage } from './permission-coverage.ts';
import type { TokenVersions } from './token-versions.ts';
import { IdentityWriteLock } from './identity-write-lock.ts';
import { mayActOnUser, mayAddChildRole, mayAssignRole, type DelegationRole, type Delegator } from '../../contract/permissions/role-delegation.ts';

/** Name of the seeded, read-only administrator role (server/seed). */
export { ADMIN_ROLE_NAME } from '../seed/seed-database.ts';
import { ADMIN_ROLE_NAME } from '../seed/seed-database.ts';

const forbidden = (message: string) => new HttpError(403, message, { i18nMessage: 'error.forbidden' });


export interface AccessRuleDeps {
  database: Database;
  service: EntityService;
  coverage: PermissionCoverage;
  tokenVersions: TokenVersions;
}

/**
 * Identity's rules on users, roles and tenants, as entity-service lifecycle hooks (so REST,
 * GraphQL writes and imports all run them, from one place). server/identity/README.md,
 * "Privilege boundaries" and "Global records", says what they are and why.
 */
export class AccessRules {
  private readonly database: Database;
  private readonly service: EntityService;
  private readonly coverage: PermissionCoverage;
  private readonly tokenVersions: TokenVersions;
  /** One lock for every user, role and tenant write: their checks and the write are one step. */
  private readonly lock: IdentityWriteLock;

  constructor(deps: AccessRuleDeps) {
    this.database = deps.database;
    this.service = deps.service;
    this.coverage = deps.coverage;
    this.tokenVersions = deps.tokenVersions;
    this.lock = new IdentityWriteLock(deps.database);
  }

  register(): void {
    const { service } = this;
    const has = (name: string) => Boolean(service.definitions[name]);
    const writeLock = <T>(work: () => Promise<T>) => this.lock.run(work);
    if (has('user') && has('role')) {
      service.addHooks('user', {
        writeLock,
        beforeChange: (event) => this.beforeUserChange(event),
        afterChange: async (event) => {
          // A password set through PUT /api/users/:id ends the user's sessions like a reset does.
          // system() writes (the password flows of user-accounts.ts) revoke on their own terms:
          // a user changing their own password keeps the session that did it.
          if (isSystemContext(event.context)) return;
          if (event.operation === 'update' && typeof event.data.password === 'string') await this.tokenVersions.revoke(event.id!);
        },
        beforeDelete: (event) => this.beforeUserDelete(event),
      });
      service.addHooks('role', {
        writeLock,
        beforeChange: (event) => this.beforeRoleChange(event),
        beforeDelete: (event) => this.beforeRoleDelete(event),
      });
    }
    if (has('tenant')) {
      service.addHooks('tenant', {
        writeLock,
        // A tenant user reaches their own tenant record only (read; writes are refused below).
        scope: (context) => (context.tenantId !== null && !isSystemContext(context) ? { recordId: context.tenantId } : null),
        beforeChange: (event) => this.requirePlatformUser(event.context, 'tenant'),
        beforeDelete: async (event) => {
          this.requirePlatformUser(event.context, 'tenant');
          await this.refuseInUse('tenant', event.id!, String(event.original?.name ?? event.id));
        },
      });
    }
  }

  // ---- users ---------------------------------------------------------------------------------

  private async beforeUserChange(event: WriteEvent): Promise<void> {
    const { context, data, original } = event;
    if (isSystemContext(context)) return;
    if (original) await this.requireMayActOn(context, original);
    const newRole = data.role === undefined ? undefined : (data.role as string | null);
    const changesRole = newRole !== undefined && newRole !== roleIdOf(original?.role);
    if (changesRole && newRole) await this.requireAssignable(context, newRole);
    // Moving a user into a tenant ends its platform administration as surely as demoting it.
    const tenantColumn = this.service.definition('user').tenantColumn;
    const newTenant = tenantColumn && data[tenantColumn] !== undefined ? roleIdOf(data[tenantColumn]) : undefined;
    const changesTenant = newTenant !== undefined && original !== null && newTenant !== roleIdOf(original[tenantColumn!]);
    if (original && (data.active === false || changesRole || changesTenant)) {
      const stillAdmin = data.active !== false
        && (changesRole ? this.coverage.isFullAdmin(await this.rolePermissions(newRole ?? null)) : true)
        && (changesTenant ? newTenant === null : true);
      if (!stillAdmin) await this.refuseLastAdministrator(event.id!, null);
    }
  }

  private async beforeUserDelete(event: WriteEvent): Promise<void> {
    if (isSystemContext(event.context)) return;
    await this.requireMayActOn(event.context, event.original!);
    await this.refuseLastAdministrator(event.id!, null);
  }

  /**
   * A caller may change, reset, deactivate or delete only users whose permissions it holds
   * itself (so never a more privileged account, e.g. the Admin). Used by the hooks and by the
   * administrator's password route.
   */
  async requireMayActOn(context: RequestContext, user: EntityRecord): Promise<void> {
    if (isSystemContext(context) || user._id === context.userId) return;
    const targetId = roleIdOf(user.role);
    const target = targetId ? await this.delegationRole(targetId) : null;
    const verdict = mayActOnUser(this.coverage, await this.delegator(context), target);
    if (!verdict.ok) throw forbidden(`User "${String(user.username)}" ${verdict.reason}; you cannot change it`);
  }

  /**
   * Roles a caller may give a user: contract/permissions/role-delegation.ts (every role for an
   * administrator; else exactly the managed roles of its own role, never an administrator role).
   * GET /api/roles/assignable offers the same list to the console's pickers.
   */
  private async requireAssignable(context: RequestContext, roleId: string): Promise<void> {
    const role = await this.delegationRole(roleId);
    if (!role) return; // a missing ref was already a 400
    const verdict = mayAssignRole(this.coverage, await this.delegator(context), role);
    if (!verdict.ok) throw forbidden(`${verdict.reason}; you cannot assign it`);
  }

  /** The caller as the delegation rule reads it: its permissions and its role's managed roles. */
  async delegator(context: RequestContext): Promise<Delegator> {
    const own = context.roleId ? await this.roleRow(context.roleId) : null;
    return { permissions: context.permissions, role: own && context.roleId ? { _id: context.roleId, childRoles: own.childRoles } : null };
  }

  private async delegationRole(id: string): Promise<DelegationRole | null> {
    const row = await this.roleRow(id);
    return row ? { _id: id, ...row } : null;
  }

  // ---- roles ---------------------------------------------------------------------------------

  private async beforeRoleChange(event: WriteEvent): Promise<void> {
    const { context, data, original } = event;
    if (isSystemContext(context)) return;
    this.requirePlatformUser(context, 'role');
    if (original) {
      this.refuseReadonly(original, data);
      const missing = this.coverage.missing(context.permissions, stringList(original.permissions));
      if (missing.length > 0) throw forbidden(`Role "${String(original.name)}" holds permissions you do not (${preview(missing)}); you cannot change it`);
    }
    const permissionsChange = data.permissions !== undefined && !(original && sameSet(stringList(original.permissions), stringList(data.permissions)));
    if (permissionsChange) {
      if (!hasPermission(context, 'role:permissions')) throw forbidden('Missing permission role:permissions');
      const missing = this.coverage.missing(context.permissions, stringList(data.permissions));
      if (missing.length > 0) throw forbidden(`You cannot grant permissions you do not hold (${preview(missing)})`);
    }
    if (Array.isArray(data.childRoles)) {
      // A child role is a role its holders may hand out: one added must not exceed the caller
      // either (else: add Admin to your own role's children, then assign it).
      const before = new Set((Array.isArray(original?.childRoles) ? original.childRoles : []).map(roleIdOf));
      for (const childId of data.childRoles.map(String)) {
        if (before.has(childId) || (original && childId === original._id)) continue;
        const child = await this.roleRow(childId);
        if (!child) continue;
        const verdict = mayAddChildRole(this.coverage, context, child);
        if (!verdict.ok) throw forbidden(verdict.reason);
      }
    }
    if (original && permissionsChange) {
      const wasAdmin = this.coverage.isFullAdmin(stringList(original.permissions));
      if (wasAdmin && !this.coverage.isFullAdmin(stringList(data.permissions))) await this.refuseLastAdministrator(null, String(original._id));
    }
  }

  private async beforeRoleDelete(event: WriteEvent): Promise<void> {
    const { context, original } = event;
    if (isSystemContext(context)) return;
    this.requirePlatformUser(context, 'role');
    this.refuseReadonly(original!, {});
    const missing = this.coverage.missing(context.permissions, stringList(original!.permissions));
    if (missing.length > 0) throw forbidden(`Role "${String(original!.name)}" holds permissions you do not (${preview(missing)}); you cannot delete it`);
    await this.refuseInUse('role', event.id!, String(original!.name));
  }

  /**
   * A read-only role cannot be changed or deleted (409). The seeded Admin stays so for ever;
   * another read-only role may only be unlocked: `readonly: false`, every other field sent
   * unchanged (a form sends the whole record back).
   */
  private refuseReadonly(original: EntityRecord, data: Record<string, unknown>): void {
    if (original.readonly !== true) return;
    const unchanged = (key: string, value: unknown) => {
      if (key === 'permissions') return sameSet(stringList(original.permissions), stringList(value));
      if (key === 'childRoles') {
        const before = (Array.isArray(original.childRoles) ? original.childRoles : []).map(roleIdOf).map(String);
        return sameSet(before, stringList(value));
      }
      return original[key] === value;
    };
    const unlock = original.name !== ADMIN_ROLE_NAME && data.readonly === false && Object.entries(data).every(([k, v]) => k === 'readonly' || unchanged(k, v));
    if (unlock) return;
    throw new HttpError(409, `Role "${String(original.name)}" is read-only and cannot be changed or deleted`, { i18nMessage: 'error.readonlyRole' });
  }

  // ---- shared --------------------------------------------------------------------------------

  /**
   * Tenants, roles and platform settings are global: shared by every tenant. Only users without
   * a tenant (platform administrators) may create, change or delete them.
   */
  requirePlatformUser(context: RequestContext, what: 'tenant' | 'role' | 'setting'): void {
    if (isSystemContext(context) || context.tenantId === null) return;
    throw new HttpError(403, `${what === 'tenant' ? 'Tenants' : what === 'role' ? 'Roles' : 'Settings'} are shared by every tenant: only platform administrators (users without a tenant) may change them`, {
      i18nMessage: 'error.platformOnly',
    });
  }

  /**
   * Refuses a write that would leave no platform administrator: an active user **without a
   * tenant** holding every permission (a tenant user cannot change roles, tenants or settings,
   * so it does not count). `exceptUser`: the user being deactivated, demoted, moved into a
   * tenant or deleted; `exceptRole`: the role losing permissions. Runs under the identity write
   * lock (identity-write-lock.ts), so the check and the write are one step per database.
   */
  private async refuseLastAdministrator(exceptUser: string | null, exceptRole: string | null): Promise<void> {
    const roles = await this.database.all(this.database.kysely.selectFrom(this.table('role')).select(['_id', 'permissions']).compile());
    const adminRoles = roles
      .filter((r) => String(r._id) !== exceptRole && this.coverage.isFullAdmin(stringList(this.database.dialect.decode('json', r.permissions))))
      .map((r) => String(r._id));
    const tenantColumn = this.service.definition('user').tenantColumn;
    if (exceptUser) {
      // Only matters when the user is an administrator now.
      const target = await this.database.first(
        this.database.kysely.selectFrom(this.table('user')).selectAll().where('_id', '=', exceptUser).compile(),
      );
      const targetIsAdmin = target && this.database.dialect.decode('boolean', target.active) !== false && adminRoles.includes(String(target.role))
        && (tenantColumn === null || target[tenantColumn] === null || target[tenantColumn] === undefined || target[tenantColumn] === '');
      if (!targetIsAdmin) return;
    }
    const others = adminRoles.length === 0
      ? []
      : await this.database.all(
        this.database.kysely
          .selectFrom(this.table('user'))
          .select(['_id', 'active'])
          .where('role', 'in', adminRoles)
          .$if(tenantColumn !== null, (q) => q.where((eb) => eb.or([eb(tenantColumn!, 'is', null), eb(tenantColumn!, '=', '')])))
          .$if(exceptUser !== null, (q) => q.where('_id', '!=', exceptUser!))
          .compile(),
      );
    if (others.some((u) => this.database.dialect.decode('boolean', u.active) !== false)) return;
    throw new HttpError(409, 'This would leave no active administrator (a user holding every permission); make another user administrator first', {
      i18nMessage: 'error.lastAdministrator',
    });
  }

  /** 409 with how many records still point at the record (every ref field and tenant column). */
  private async refuseInUse(entity: 'role' | 'tenant', id: string, name: string): Promise<void> {
    const count = await this.countReferences(entity, id);
    if (count === 0) return;
    throw new HttpError(409, `${entity === 'role' ? 'Role' : 'Tenant'} "${name}" is used by ${count} record${count === 1 ? '' : 's'}; change or delete them first`, {
      i18nMessage: entity === 'role' ? 'error.roleInUse' : 'error.tenantInUse',
      details: { i18nParams: { count } },
    });
  }

  async countReferences(entity: string, id: string): Promise<number> {
    const { database } = this;
    const seen = new Set<string>();
    let total = 0;
    for (const definition of Object.values(this.service.definitions)) {
      const columns: { column: string; list: boolean }[] = [];
      for (const field of definition.refFields) if (field.ref!.entity === entity) columns.push({ column: field.name, list: field.type === 'array.ref' });
      if (entity === 'tenant' && definition.tenantColumn && !columns.some((c) => c.column === definition.tenantColumn)) columns.push({ column: definition.tenantColumn, list: false });
      for (const { column, list } of columns) {
        const key = `${definition.table}.${column}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const row = await database.first(
          database.kysely
            .selectFrom(definition.table)
            .select((eb) => eb.fn.countAll<number>().as('total'))
            .where((eb) => {
              const match = list ? database.dialect.jsonArrayContainsAny(column, [id]) : eb(column, '=', id);
              // A role listing itself as its own child does not keep itself alive.
              return definition.model.name === entity ? eb.and([match, eb('_id', '!=', id)]) : match;
            })
            .compile(),
        );
        total += Number(row?.total ?? 0);
      }
    }
    return total;
  }

  private table(entity: string): string {
    return this.service.definition(entity).table;
  }

  private async roleRow(id: string): Promise<{ name: string; permissions: string[]; childRoles: string[] } | null> {
    const row = await this.database.first(
      this.database.kysely.selectFrom(this.table('role')).select(['name', 'permissions', 'childRoles']).where('_id', '=', id).compile(),
    );
    if (!row) return null;
    const json = (value: unknown) => stringList(this.database.dialect.decode('json', value));
    return { name: String(row.name), permissions: json(row.permissions), childRoles: json(row.childRoles) };
  }

  private async rolePermissions(roleId: string | null): Promise<string[]> {
    if (!roleId) return [];
    return (await this.roleRow(roleId))?.permissions ?? [];
  }
}

function roleIdOf(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'object') return String((value as { _id?: unknown })._id ?? '') || null;
  return String(value);
}

function sameSet(a: string[], b: string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function preview(list: string[]): string {
  return list.length > 5 ? `${list.slice(0, 5).join(', ')}, ...` : list.join(', ');
}
