import type { EntityService } from '../entities/entity-service.ts';
import { HttpError } from '../http/http-error.ts';
import { system } from '../entities/system-context.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { refuseUnsafeDefaultRole, sensitiveSettingsCoverage } from './sensitive-settings.ts';

/**
 * The role given to self-registered and Google-created users: the role named by the
 * auth.defaultRole setting (seeded 'User'). A missing role is a configuration error (409); so is
 * a role holding any user, role, setting or tenant permission, or every permission (409
 * `error.unsafeDefaultRole`): these users have no tenant, so it would make an anonymous visitor
 * a platform administrator.
 */
export async function defaultRoleId(service: EntityService, settings: SettingsStore): Promise<string> {
  const name = (await settings.getString('auth.defaultRole')) ?? 'User';
  const roles = await service.find('role', system(), { limit: 0, offset: 0, orderBy: null, order: 'asc', search: name, filters: [] });
  const role = roles.find((r) => r.name === name);
  if (!role) throw new HttpError(409, `The default role "${name}" (setting auth.defaultRole) does not exist`);
  refuseUnsafeDefaultRole(name, Array.isArray(role.permissions) ? role.permissions.map(String) : [], sensitiveSettingsCoverage(settings));
  return String(role._id);
}
