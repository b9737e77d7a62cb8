import type { Setting, SettingType } from '../session/session-types.ts';

/** What the edit dialog holds while typing: text for scalars, a list for list types, a flag for booleans. */
export type DraftValue = string | boolean | string[];

const NUMBER = /^-?\d+(\.\d+)?$/;
const LIST_TYPES: ReadonlySet<SettingType> = new Set(['stringList', 'numberList', 'enumList']);

export const isListType = (type: SettingType) => LIST_TYPES.has(type);

/** The stored value as the dialog's draft. */
export function toDraft(setting: Pick<Setting, 'type' | 'value'>): DraftValue {
  const { type, value } = setting;
  if (type === 'boolean') return value === true || value === 'true';
  if (isListType(type)) return Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',').map((item) => item.trim()) : [];
  // Passwords are never shown: the dialog starts empty and only a new value replaces the old one.
  if (type === 'password') return '';
  return value === null || value === undefined ? '' : String(value);
}

/** The draft as the value PATCH /api/settings/:id sends. */
export function fromDraft(type: SettingType, draft: DraftValue): unknown {
  if (type === 'boolean') return draft === true;
  if (type === 'number') return Number(String(draft).trim());
  if (type === 'numberList') return (draft as string[]).map((item) => Number(item.trim()));
  if (isListType(type)) return (draft as string[]).map((item) => item.trim());
  return String(draft);
}

function matches(regex: string | null | undefined, text: string): boolean {
  if (!regex) return true;
  try {
    return new RegExp(regex).test(text);
  } catch {
    // A broken pattern in the database must not lock the setting.
    return true;
  }
}

/**
 * Spec §5 Settings: a regex, if present, must match (the string, or each list item): 'Formato
 * Invalido.'; number and numberList require digits: 'Formato Invalido. Solo se esperan números.'.
 * Returns the locale key of the message, or null when the draft is valid.
 */
export function validateSetting(setting: Pick<Setting, 'type' | 'regex' | 'options'>, draft: DraftValue): string | null {
  const { type, regex } = setting;
  switch (type) {
    case 'boolean':
      return null;
    case 'number': {
      const text = String(draft).trim();
      if (!NUMBER.test(text)) return 'settings.onlyNumbers';
      return matches(regex, text) ? null : 'settings.invalidFormat';
    }
    case 'numberList': {
      const items = draft as string[];
      if (items.some((item) => !NUMBER.test(item.trim()))) return 'settings.onlyNumbers';
      return items.every((item) => matches(regex, item.trim())) ? null : 'settings.invalidFormat';
    }
    case 'stringList':
      return (draft as string[]).every((item) => matches(regex, item)) ? null : 'settings.invalidFormat';
    case 'enum': {
      const options = setting.options ?? [];
      return options.length === 0 || options.includes(String(draft)) ? null : 'settings.invalidFormat';
    }
    case 'enumList': {
      const options = setting.options ?? [];
      return options.length === 0 || (draft as string[]).every((item) => options.includes(item)) ? null : 'settings.invalidFormat';
    }
    case 'password':
      // An empty password draft means "leave as is" only when nothing is typed; validate typed text.
      return String(draft) === '' || matches(regex, String(draft)) ? null : 'settings.invalidFormat';
    default:
      return matches(regex, String(draft)) ? null : 'settings.invalidFormat';
  }
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
