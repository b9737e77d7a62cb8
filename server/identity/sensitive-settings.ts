import type { EntityService } from '../entities/entity-service.ts';
import { entities } from '../generated/entities.ts';
import { HttpError } from '../http/http-error.ts';
import { ALL_PERMISSIONS, type RequestContext } from '../http/request-context.ts';
import { system } from '../entities/system-context.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { PermissionCoverage } from './permission-coverage.ts';

/**
 * Settings that decide who gets an account and with which role, where account mail (recovery
 * codes) goes and what its links point at, whose Google accounts are accepted, and where the
 * platform sends chat and knowledge text. Changing any of them is as good as holding every
 * permission (e.g. auth.defaultRole=Admin + registration on = an anonymous Admin account;
 * smtp.host = the attacker's server + a recovery request for the admin = the admin's account),
 * so only a caller holding every permission may change them (server/identity/README.md).
 */
const SENSITIVE_PREFIXES = ['auth.', 'smtp.', 'google.'];
const SENSITIVE_KEYS = new Set(['app.publicUrl', 'llm.baseUrl', 'embedding.baseUrl']);

export function isSensitiveSetting(key: string): boolean {
  return SENSITIVE_KEYS.has(key) || SENSITIVE_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * Permissions a role given to self-registered or Google-created users must not hold: anything
 * over accounts, roles, settings or tenants (and `*`). Such users have no tenant, so these would
 * make an anonymous visitor a platform administrator.
 */
const PRIVILEGED_PREFIXES = ['user:', 'role:', 'setting:', 'tenant:'];
const SAFE_USER_API_KEY = new Set(['userApiKey:myView', 'userApiKey:myCreate']);

export function privilegedPermissions(permissions: readonly string[], coverage: PermissionCoverage): string[] {
  if (coverage.isFullAdmin(permissions)) return permissions.includes(ALL_PERMISSIONS) ? [ALL_PERMISSIONS] : ['(every permission)'];
  return permissions.filter((p) => p === ALL_PERMISSIONS || PRIVILEGED_PREFIXES.some((prefix) => p.startsWith(prefix)) || (p.startsWith('userApiKey:') && !SAFE_USER_API_KEY.has(p)));
}

interface Binding {
  coverage: PermissionCoverage;
  service: EntityService;
}

/** Per settings store (one per server): the identity feature binds the server's own catalogue. */
const bindings = new WeakMap<SettingsStore, Binding>();
let fallbackCoverage: PermissionCoverage | null = null;

export function bindSensitiveSettings(store: SettingsStore, binding: Binding): void {
  bindings.set(store, binding);
}

function coverageFor(store: SettingsStore): PermissionCoverage {
  const bound = bindings.get(store);
  if (bound) return bound.coverage;
  fallbackCoverage ??= new PermissionCoverage(entities);
  return fallbackCoverage;
}

/**
 * Called by `PATCH /api/settings/:id` before it writes: a security-relevant setting needs a
 * caller holding every permission (403 `error.settingRequiresAdmin`); `auth.defaultRole` may not
 * name a role holding account, role, setting or tenant permissions (409 `error.unsafeDefaultRole`).
 */
export async function requireMayChangeSetting(store: SettingsStore, context: RequestContext, keyOrId: string, value: unknown): Promise<void> {
  const { key } = await store.find(keyOrId);
  if (!isSensitiveSetting(key)) return;
  const coverage = coverageFor(store);
  if (!coverage.isFullAdmin(context.permissions)) {
    throw new HttpError(403, `Setting "${key}" decides who gets an account, where account mail goes or where data is sent: only a user holding every permission may change it`, {
      i18nMessage: 'error.settingRequiresAdmin',
    });
  }
  const service = bindings.get(store)?.service;
  if (key === 'auth.defaultRole' && typeof value === 'string' && service) {
    const permissions = await rolePermissionsByName(service, value.trim());
    if (permissions) refuseUnsafeDefaultRole(value.trim(), permissions, coverage);
  }
}

/** 409 when the default role (by name) would hand out account/role/setting/tenant power. */
export function refuseUnsafeDefaultRole(name: string, permissions: readonly string[], coverage: PermissionCoverage): void {
  const privileged = privilegedPermissions(permissions, coverage);
  if (privileged.length === 0) return;
  throw new HttpError(409, `The default role "${name}" (setting auth.defaultRole) holds permissions new self-registered users must not get (${privileged.slice(0, 5).join(', ')}); choose a role without user, role, setting or tenant permissions`, {
    i18nMessage: 'error.unsafeDefaultRole',
  });
}

async function rolePermissionsByName(service: EntityService, name: string): Promise<string[] | null> {
  if (!service.definitions.role) return null;
  const roles = await service.find('role', system(), { limit: 0, offset: 0, orderBy: null, order: 'asc', search: name, filters: [] });
  const role = roles.find((r) => r.name === name);
  return role ? (Array.isArray(role.permissions) ? role.permissions.map(String) : []) : null;
}

/** The coverage bound to a store (default-role.ts uses it for registration and Google sign-up). */
export function sensitiveSettingsCoverage(store: SettingsStore): PermissionCoverage {
  return coverageFor(store);
}
