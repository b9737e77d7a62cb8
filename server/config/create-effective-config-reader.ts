import type { EnvironmentDefaults } from '../config.ts';
import type { Database } from '../db/database.ts';
import { settingsStoreFor } from '../settings/settings-store.ts';
import { resolveEffectiveConfig, type EffectiveConfigReader } from './resolve-effective-config.ts';

/** The Settings keys the effective configuration reads (server/settings/setting-definitions.ts). */
const KEYS = [
  'llm.provider', 'llm.model', 'llm.baseUrl', 'llm.apiKey', 'llm.timeoutMs', 'embedding.model', 'embedding.baseUrl', 'embedding.apiKey',
  'smtp.host', 'smtp.port', 'smtp.secure', 'smtp.user', 'smtp.password', 'smtp.from', 'google.clientId', 'app.publicUrl',
];

/**
 * The one configuration reader every feature uses: the Settings rows, read per call, over the
 * environment's defaults, parsed once at start (server/config.ts loadEnvironmentDefaults).
 * The Settings store keeps the table in memory until the database's change token moves (any
 * write, on any instance), so a PATCH of a setting applies to the next call without a restart,
 * and a call without a change is map lookups. A database without the Settings table (a trimmed
 * test server) runs on the environment alone.
 */
export function createEffectiveConfigReader(database: Database, environment: EnvironmentDefaults): EffectiveConfigReader {
  return async () => {
    let stored: Map<string, unknown>;
    try {
      const store = settingsStoreFor(database);
      stored = new Map(await Promise.all(KEYS.map(async (key) => [key, await store.get(key)] as const)));
    } catch {
      stored = new Map();
    }
    return resolveEffectiveConfig(stored, environment);
  };
}
