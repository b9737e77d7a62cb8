import { FORMAT_REASON, INTEGER_REASON, MAX_REASON, MIN_REASON, NUMBERS_REASON, REQUIRED_REASON, TOO_LONG_REASON, isListType, settingNumber, validateSettingValue } from '../../contract/settings/validate-setting-value.ts';
import type { Setting, SettingType } from '../session/session-types.ts';

/** What the edit dialog holds while typing: text for scalars, a list for list types, a flag for booleans. */
export type DraftValue = string | boolean | string[];

/** The stored value as the dialog's draft. */
export function toDraft(setting: Pick<Setting, 'type' | 'value'>): DraftValue {
  const { type, value } = setting;
  if (type === 'boolean') return value === true || value === 'true';
  if (isListType(type)) return Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',').map((item) => item.trim()) : [];
  // Passwords are never shown: the dialog starts empty and only a new value replaces the old one.
  if (type === 'password') return '';
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The draft as the value PATCH /api/settings/:id sends: numbers as numbers when they are numbers
 * by the shared rule (anything else is sent as typed, and refused), an empty number as null
 * (clears it).
 */
export function fromDraft(type: SettingType, draft: DraftValue): unknown {
  // A decimal comma ("0,5", as Spanish writes it) is the same number as "0.5"; anything else
  // (thousands marks, several commas) is sent as typed and refused by the shared rule.
  const toNumber = (text: string) => settingNumber(/^\s*-?\d+,\d+\s*$/.test(text) ? text.replace(',', '.') : text) ?? text.trim();
  if (type === 'boolean') return draft === true;
  if (type === 'number') return String(draft).trim() === '' ? null : toNumber(String(draft));
  if (type === 'numberList') return (draft as string[]).map(toNumber);
  if (isListType(type)) return (draft as string[]).map((item) => item.trim());
  return String(draft);
}

/** Locale key of each reason the shared rule gives (docs/product-rules.md#validation messages). */
const MESSAGE_OF_REASON: Record<string, string> = {
  [FORMAT_REASON]: 'settings.invalidFormat',
  [NUMBERS_REASON]: 'settings.onlyNumbers',
  [TOO_LONG_REASON]: 'validation.setting.tooLong',
  [REQUIRED_REASON]: REQUIRED_REASON,
  [MIN_REASON]: MIN_REASON,
  [MAX_REASON]: MAX_REASON,
  [INTEGER_REASON]: INTEGER_REASON,
};

export interface SettingDraftError {
  /** Locale key of the message. */
  key: string;
  /** Its interpolation values (`max` for a value too long or too big, `min` for one too small). */
  params?: { max?: number; min?: number };
}

/**
 * docs/product-rules.md#validation Settings: the shared rule (contract/settings/validate-setting-value.ts, the one the
 * server runs on PATCH) applied to exactly what the dialog would send, so the dialog refuses what
 * the server refuses and nothing else. null when the draft is valid.
 */
export function describeSettingError(setting: Pick<Setting, 'type' | 'regex' | 'options'> & { key?: string }, draft: DraftValue): SettingDraftError | null {
  const checked = validateSettingValue(setting, fromDraft(setting.type, draft));
  if (checked.ok) return null;
  const key = MESSAGE_OF_REASON[checked.error.reason] ?? 'settings.invalidFormat';
  if (checked.max !== undefined) return { key, params: { max: checked.max } };
  return checked.min !== undefined ? { key, params: { min: checked.min } } : { key };
}

/** The locale key of the draft's error ('settings.invalidFormat', 'settings.onlyNumbers', ...), or null. */
export function validateSetting(setting: Pick<Setting, 'type' | 'regex' | 'options'> & { key?: string }, draft: DraftValue): string | null {
  return describeSettingError(setting, draft)?.key ?? null;
}

export interface SettingGroup {
  category: string;
  settings: Setting[];
}

/** GET /api/settings/grouped in any of its plausible shapes: {category: [...]}, [{category, settings|items}], or a flat list. */
export function normaliseGroups(body: unknown): SettingGroup[] {
  const groups = new Map<string, Setting[]>();
  const add = (category: string, settings: unknown) => {
    if (!Array.isArray(settings)) return;
    const list = groups.get(category) ?? [];
    list.push(...(settings as Setting[]));
    groups.set(category, list);
  };
  if (Array.isArray(body)) {
    for (const entry of body as Array<Record<string, unknown>>) {
      if (entry && Array.isArray(entry.settings ?? entry.items)) add(String(entry.category ?? entry.name ?? ''), entry.settings ?? entry.items);
      else if (entry && typeof entry.key === 'string') add(String(entry.category ?? 'general'), [entry]);
    }
  } else if (body && typeof body === 'object') {
    const object = body as Record<string, unknown>;
    if (Array.isArray(object.groups)) return normaliseGroups(object.groups);
    for (const [category, settings] of Object.entries(object)) add(category, settings);
  }
  return [...groups.entries()].map(([category, settings]) => ({ category, settings }));
}

/** Replaces one setting inside the groups after a save. */
export function replaceSetting(groups: SettingGroup[], updated: Setting): SettingGroup[] {
  return groups.map((group) => ({
    ...group,
    settings: group.settings.map((setting) => (setting._id === updated._id || (setting.id !== undefined && setting.id === updated.id) ? { ...setting, ...updated } : setting)),
  }));
}
