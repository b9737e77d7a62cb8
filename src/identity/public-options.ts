import type { IdentityApi } from '../session/identity-api.ts';

/** What the sign-in screen needs to know before anyone signs in. */
export interface PublicOptions {
  registration: boolean;
  recovery: boolean;
  googleClientId: string | null;
}

/**
 * Where each option is read, first match wins: the keys GET /api/settings/public sends
 * (server/settings/settings-routes.ts), then the setting keys of server/settings/setting-definitions.ts
 * (GET /api/settings, when the public endpoint is missing).
 */
const KEYS = {
  registration: ['registration', 'auth.registrationEnabled'],
  recovery: ['recovery', 'auth.recoveryEnabled'],
  googleClientId: ['googleClientId', 'google.clientId'],
} as const;

/** When nothing can be read: recovery only (it does not create accounts), Google from the build env. */
export function fallbackOptions(envClientId: string | null | undefined): PublicOptions {
  return { registration: false, recovery: true, googleClientId: envClientId?.trim() || null };
}

/**
 * Reads the flags from whatever shape the server returns: a key→value object (flat or nested by
 * dots), a list of settings ({key, value}), or {items: [...]}. Unknown keys keep the fallback.
 */
export function parsePublicOptions(body: unknown, fallback: PublicOptions): PublicOptions {
  const values = new Map<string, unknown>();
  const collect = (node: unknown, prefix = ''): void => {
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item && typeof item === 'object' && 'key' in item) values.set(String((item as { key: unknown }).key), (item as { value?: unknown }).value);
        else collect(item, prefix);
      }
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (value && typeof value === 'object') collect(value, key === 'items' || key === 'settings' ? prefix : `${prefix}${key}.`);
        else values.set(`${prefix}${key}`, value);
      }
    }
  };
  collect(body);
  const first = (keys: readonly string[]) => keys.map((key) => values.get(key)).find((value) => value !== undefined && value !== null);
  const flag = (keys: readonly string[], fallbackValue: boolean) => {
    const value = first(keys);
    return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : fallbackValue;
  };
  const clientId = KEYS.googleClientId.map((key) => values.get(key)).find((value) => typeof value === 'string' && value.trim());
  return {
    registration: flag(KEYS.registration, fallback.registration),
    recovery: flag(KEYS.recovery, fallback.recovery),
    googleClientId: (typeof clientId === 'string' && clientId.trim()) || fallback.googleClientId,
  };
}

/**
 * Asks GET /api/settings/public first (readable without signing in); if the server has no such
 * endpoint, GET /api/settings (works when signed in or public); else the fallback.
 */
export async function loadPublicOptions(api: Pick<IdentityApi, 'publicSettings' | 'settings'>, envClientId: string | null | undefined): Promise<PublicOptions> {
  const fallback = fallbackOptions(envClientId);
  for (const read of [api.publicSettings, api.settings]) {
    try {
      return parsePublicOptions(await read(), fallback);
    } catch {
      // try the next source
    }
  }
  return fallback;
}
