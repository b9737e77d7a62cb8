import type { RuntimeConfigReader } from '../config/resolve-runtime-config.ts';
import type { FastifyInstance } from 'fastify';
import type { RoutePermission } from '../http/authorizer.ts';
import { routePermission } from '../entities/route-permission.ts';
import { entities } from '../generated/entities.ts';
import { badRequest, HttpError } from '../http/http-error.ts';
import { isPlainObject } from '../entities/entity-validator.ts';
import { publicSetting, type SettingsStore } from './settings-store.ts';
import { requireMayChangeSetting } from '../identity/sensitive-settings.ts';

// The entity's one permission rule (contract/permissions), as the console applies it too.
const VIEW: RoutePermission = routePermission(entities.setting!, 'view');
const UPDATE: RoutePermission = routePermission(entities.setting!, 'update');

/**
 * docs/product-rules.md#calls Settings (the entity is `provider: custom`, so these replace the generic routes).
 * Reads need setting:view or setting:manage; changing a value setting:update or setting:manage. Password
 * values never leave the server in clear.
 */
export function registerSettingsRoutes(app: FastifyInstance, store: SettingsStore, readConfig: RuntimeConfigReader): void {
  app.get('/api/settings', { config: { permission: VIEW } }, async () => (await store.list()).map(publicSetting));

  app.get('/api/settings/grouped', { config: { permission: VIEW } }, async () => {
    const groups = new Map<string, ReturnType<typeof publicSetting>[]>();
    for (const setting of await store.list()) {
      const category = setting.category ?? 'general';
      if (!groups.has(category)) groups.set(category, []);
      groups.get(category)!.push(publicSetting(setting));
    }
    return [...groups].map(([category, settings]) => ({ category, settings }));
  });

  // Public: the sign-in page shows the registration and recovery links and the Google button only
  // when enabled (docs/product-rules.md#screens), before anyone is signed in. Only these three values are exposed.
  app.get('/api/settings/public', async () => ({
    registration: await store.getBoolean('auth.registrationEnabled'),
    recovery: await store.getBoolean('auth.recoveryEnabled'),
    // As the Google route resolves it (setting, else GOOGLE_CLIENT_ID): the button shows when sign-in works.
    googleClientId: (await readConfig()).googleClientId,
  }));

  app.get<{ Params: { keyOrId: string } }>('/api/settings/:keyOrId', { config: { permission: VIEW } }, async (request) =>
    publicSetting(await store.find(request.params.keyOrId)),
  );

  app.patch<{ Params: { id: string } }>('/api/settings/:id', { config: { permission: UPDATE } }, async (request) => {
    // Settings are the platform's (mail links, the model, SMTP): shared by every tenant, so a
    // user bound to a tenant never changes them, whatever their role says.
    if (request.context.tenantId !== null) {
      throw new HttpError(403, 'Settings are shared by every tenant: only platform administrators (users without a tenant) may change them', {
        i18nMessage: 'error.platformOnly',
      });
    }
    if (!isPlainObject(request.body) || !('value' in request.body)) throw badRequest('The body must be a JSON object with a "value"');
    await requireMayChangeSetting(store, request.context, request.params.id, request.body.value);
    return publicSetting(await store.update(request.params.id, request.body.value));
  });
}
