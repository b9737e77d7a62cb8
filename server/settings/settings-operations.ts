import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import { routePermission } from '../entities/route-permission.ts';
import { entities } from '../generated/entities.ts';
import { badRequest, HttpError } from '../http/http-error.ts';
import { isPlainObject } from '../entities/entity-validator.ts';
import { requireMayChangeSetting } from '../identity/sensitive-settings.ts';
import { isSystemContext } from '../entities/system-context.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';
import { publicSetting, type SettingRecord, type SettingsStore } from './settings-store.ts';

// The entity's one permission rule (contract/permissions), as the console applies it too.
const VIEW = [routePermission(entities.setting!, 'view')];
const UPDATE = [routePermission(entities.setting!, 'update')];

export interface PublicSettings {
  registration: boolean;
  recovery: boolean;
  googleClientId: string | null;
}

/** The Settings operations (the entity is `api.endpoints: custom`: these replace its generic ones). */
export interface SettingsOperations {
  list: Operation<void, SettingRecord[]>;
  grouped: Operation<void, Array<{ category: string; settings: SettingRecord[] }>>;
  /** What the sign-in page needs before anyone signs in: public. */
  publicValues: Operation<void, PublicSettings>;
  find: Operation<{ keyOrId: string }, SettingRecord>;
  /** `{ value }` as sent: platform administrators only, sensitive keys only for full administrators. */
  update: Operation<{ id: string; body: unknown }, SettingRecord>;
}

/**
 * docs/product-rules.md#calls Settings. Reads need setting:view or setting:manage; changing a value
 * setting:update or setting:manage, and a caller without a tenant. Password values never leave
 * the server in clear.
 */
export function createSettingsOperations(deps: { store: SettingsStore; readConfig: EffectiveConfigReader; defineOperation: DefineOperation }): SettingsOperations {
  const { store, readConfig, defineOperation: define } = deps;
  return {
    list: define<void, SettingRecord[]>(VIEW, async () => (await store.list()).map(publicSetting)),
    grouped: define<void, Array<{ category: string; settings: SettingRecord[] }>>(VIEW, async () => {
      const groups = new Map<string, SettingRecord[]>();
      for (const setting of await store.list()) {
        const category = setting.category ?? 'general';
        if (!groups.has(category)) groups.set(category, []);
        groups.get(category)!.push(publicSetting(setting));
      }
      return [...groups].map(([category, settings]) => ({ category, settings }));
    }),
    // The sign-in page shows the registration and recovery links and the Google button only when
    // enabled (docs/product-rules.md#screens), before anyone is signed in. Only these three values are exposed.
    publicValues: define<void, PublicSettings>('public', async () => ({
      registration: await store.getBoolean('auth.registrationEnabled'),
      recovery: await store.getBoolean('auth.recoveryEnabled'),
      // As the Google sign-in resolves it (setting, else GOOGLE_CLIENT_ID): the button shows when sign-in works.
      googleClientId: (await readConfig()).googleClientId,
    })),
    find: define<{ keyOrId: string }, SettingRecord>(VIEW, async (_caller, { keyOrId }) => publicSetting(await store.find(keyOrId))),
    update: define<{ id: string; body: unknown }, SettingRecord>(UPDATE, async ({ context }, { id, body }) => {
      // Settings are the platform's (mail links, the model, SMTP): shared by every tenant, so a
      // user bound to a tenant never changes them, whatever their role says.
      if (context.tenantId !== null && !isSystemContext(context)) {
        throw new HttpError(403, 'Settings are shared by every tenant: only platform administrators (users without a tenant) may change them', {
          i18nMessage: 'error.platformOnly',
        });
      }
      if (!isPlainObject(body) || !('value' in body)) throw badRequest('The body must be a JSON object with a "value"');
      await requireMayChangeSetting(store, context, id, body.value);
      return publicSetting(await store.update(id, body.value));
    }),
  };
}
