import type { SettingType } from '../../contract/settings/validate-setting-value.ts';

export type { SettingType };

export interface SettingDefinition {
  key: string;
  /** Locale key of the label (setting.<key>). */
  label: string;
  /** Group on the Settings screen; locale key setting.category.<category>. */
  category: string;
  type: SettingType;
  /** Value on first start; never overwritten afterwards. */
  value: unknown;
  options?: string[];
  regex?: string;
  prefix?: string;
  suffix?: string;
}

const define = (key: string, category: string, type: SettingType, value: unknown, extra: Partial<SettingDefinition> = {}): SettingDefinition => ({
  key, label: `setting.${key}`, category, type, value, ...extra,
});

/**
 * Every setting the server knows, seeded on start (server/settings/README.md documents them).
 * An object literal keyed by key: a reader asking for an unknown key is a programming error and
 * fails loudly (settings-store.ts).
 */
export const SETTING_DEFINITIONS: Record<string, SettingDefinition> = Object.fromEntries(
  [
    define('auth.registrationEnabled', 'auth', 'boolean', false),
    define('auth.recoveryEnabled', 'auth', 'boolean', true),
    define('auth.defaultRole', 'auth', 'string', 'User'),
    define('auth.googleAutoCreate', 'auth', 'boolean', true),
    define('app.publicUrl', 'general', 'string', '', { regex: '^(https?://[^\\s/]+)?$' }),
    define('google.clientId', 'google', 'string', ''),
    define('llm.provider', 'llm', 'enum', 'auto', { options: ['auto', 'openai-compatible', 'offline'] }),
    define('llm.model', 'llm', 'string', ''),
    define('llm.baseUrl', 'llm', 'string', '', { regex: '^(https?://\\S+)?$' }),
    define('llm.apiKey', 'llm', 'password', ''),
    define('llm.timeoutMs', 'llm', 'number', 60000, { suffix: 'ms' }),
    define('embedding.model', 'llm', 'string', ''),
    define('embedding.baseUrl', 'llm', 'string', '', { regex: '^(https?://\\S+)?$' }),
    define('embedding.apiKey', 'llm', 'password', ''),
    define('smtp.host', 'smtp', 'string', ''),
    define('smtp.port', 'smtp', 'number', 587),
    define('smtp.secure', 'smtp', 'boolean', false),
    define('smtp.user', 'smtp', 'string', ''),
    define('smtp.password', 'smtp', 'password', ''),
    define('smtp.from', 'smtp', 'string', 'Forja <no-reply@localhost>'),
  ].map((d) => [d.key, d]),
);
