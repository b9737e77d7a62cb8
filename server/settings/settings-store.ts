import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { system } from '../entities/system-context.ts';
import { entities } from '../generated/entities.ts';
import { notFound, validationError } from '../http/http-error.ts';
import { SETTING_DEFINITIONS, type SettingType } from './setting-definitions.ts';
import { validateSettingValue } from '../../contract/settings/validate-setting-value.ts';

export interface SettingRecord {
  _id: string;
  key: string;
  label: string | null;
  category: string | null;
  type: SettingType;
  value: unknown;
  options: string[] | null;
  regex: string | null;
  prefix: string | null;
  suffix: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What password-type settings show instead of their value once one is stored. */
export const PASSWORD_MASK = '********';

const TABLE = entities.setting.storage.table;

/**
 * Secrets bound to a host: when the host setting moves to another origin (scheme, host, port),
 * the stored secret is cleared, so it is never sent to a server it was not entered for; the
 * administrator types it again. `followers`: secrets that default to this host (embedding.*
 * falls back to llm.baseUrl when its own base URL is empty).
 */
const HOST_SECRETS: Record<string, { secrets: string[]; followers?: { whenEmpty: string; secrets: string[] }[] }> = {
  'llm.baseUrl': { secrets: ['llm.apiKey'], followers: [{ whenEmpty: 'embedding.baseUrl', secrets: ['embedding.apiKey'] }] },
  'embedding.baseUrl': { secrets: ['embedding.apiKey'] },
  'smtp.host': { secrets: ['smtp.password'] },
};

/** Origin of a base URL or host setting ('' when empty or not a URL). */
function originOf(key: string, value: unknown): string {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === '') return '';
  if (key === 'smtp.host') return text;
  try {
    return new URL(text).origin;
  } catch {
    return text;
  }
}
const JSON_COLUMNS = new Set(['value', 'options']);

/**
 * Server-side reader and writer of Settings. Other features read through `get` (e.g. the chat
 * reads llm.* keys); the whole table (a few dozen rows) is loaded once and kept while the
 * database's change token stays the same, so reads are map lookups.
 */
export class SettingsStore {
  private cache: { token: string; byKey: Map<string, SettingRecord> } | null = null;

  private service: EntityService | null = null;

  constructor(private readonly database: Database) {}

  /**
   * Writes go through the entity service from now on (its validation, hooks and one transaction
   * per update), as every other entity write. Set once by the server at start-up; reads stay one
   * cached query of the whole table (a few dozen rows, read on every chat message).
   */
  writeThrough(service: EntityService): this {
    this.service = service;
    return this;
  }

  /** Every setting, values in clear (server use only; routes mask passwords). */
  async list(): Promise<SettingRecord[]> {
    return [...(await this.load()).values()];
  }

  /**
   * The stored value of a known key; null when empty (''/null/[]). Unknown keys throw: a typo
   * in a reader is a bug, not an unset setting.
   */
  async get(key: string): Promise<unknown> {
    if (!SETTING_DEFINITIONS[key]) throw new Error(`Unknown setting "${key}" (known: ${Object.keys(SETTING_DEFINITIONS).join(', ')})`);
    const value = (await this.load()).get(key)?.value;
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return null;
    return value;
  }

  async getString(key: string): Promise<string | null> {
    const value = await this.get(key);
    return typeof value === 'string' ? value : value === null ? null : String(value);
  }

  async getNumber(key: string): Promise<number | null> {
    const value = await this.get(key);
    return typeof value === 'number' ? value : null;
  }

  async getBoolean(key: string): Promise<boolean> {
    const value = await this.get(key);
    return value === null ? SETTING_DEFINITIONS[key].value === true : value === true;
  }

  /** By _id or by key; 404 otherwise. */
  async find(keyOrId: string): Promise<SettingRecord> {
    const byKey = await this.load();
    const found = byKey.get(keyOrId) ?? [...byKey.values()].find((s) => s._id === keyOrId);
    if (!found) throw notFound(`Setting ${keyOrId} not found`);
    return found;
  }

  /**
   * Validates by type/options/regex/length (400 with the messages of docs/product-rules.md#validation) and stores the value.
   * Moving a host setting to another origin clears the secrets bound to it (HOST_SECRETS):
   * `cleared` names them, so the console can ask for them again.
   */
  async update(keyOrId: string, value: unknown): Promise<SettingRecord & { cleared?: string[] }> {
    const setting = await this.find(keyOrId);
    // The masked value coming back from a form means "unchanged".
    if (setting.type === 'password' && value === PASSWORD_MASK) return setting;
    const checked = validateSettingValue(setting, value);
    if (!checked.ok) throw validationError([checked.error], checked.message);
    const cleared: string[] = [];
    const bound = HOST_SECRETS[setting.key];
    if (bound && originOf(setting.key, setting.value) !== originOf(setting.key, checked.value)) {
      const byKey = await this.load();
      const secrets = [...bound.secrets];
      for (const follower of bound.followers ?? []) if (originOf(follower.whenEmpty, byKey.get(follower.whenEmpty)?.value) === '') secrets.push(...follower.secrets);
      for (const secret of secrets) {
        const stored = byKey.get(secret)?.value;
        if (typeof stored === 'string' && stored !== '') cleared.push(secret);
      }
    }
    // The host and the clearing of its secrets together or not at all.
    const service = this.service;
    if (!service) throw new Error('SettingsStore.update: no entity service to write through (call writeThrough(service) at start-up)');
    const byKey = cleared.length > 0 ? await this.load() : null;
    await this.database.transaction(async () => {
      await service.update('setting', system(), setting._id, { value: checked.value }, { populate: false });
      for (const secret of cleared) await service.update('setting', system(), String(byKey!.get(secret)!._id), { value: '' }, { populate: false });
    });
    this.cache = null;
    const updated = await this.find(setting._id);
    return cleared.length > 0 ? { ...updated, cleared } : updated;
  }

  private async load(): Promise<Map<string, SettingRecord>> {
    const token = this.database.changeToken();
    if (this.cache && this.cache.token === token) return this.cache.byKey;
    const rows = await this.database.all(this.database.kysely.selectFrom(TABLE).selectAll().orderBy('category').orderBy('key').compile());
    const byKey = new Map<string, SettingRecord>();
    for (const row of rows) {
      const record: Record<string, unknown> = {};
      for (const [column, raw] of Object.entries(row)) record[column] = JSON_COLUMNS.has(column) ? this.database.dialect.decode('json', raw) : raw;
      byKey.set(String(record.key), record as unknown as SettingRecord);
    }
    this.cache = { token, byKey };
    return byKey;
  }
}

const stores = new WeakMap<Database, SettingsStore>();

/** The one store of a database, so every feature shares its cache. */
export function settingsStoreFor(database: Database): SettingsStore {
  let store = stores.get(database);
  if (!store) stores.set(database, (store = new SettingsStore(database)));
  return store;
}

/** A setting as the API shows it: password values masked. */
export function publicSetting<T extends SettingRecord>(setting: T): T {
  if (setting.type !== 'password') return setting;
  return { ...setting, value: setting.value ? PASSWORD_MASK : '' };
}
