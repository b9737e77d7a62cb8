/**
 * The one rule for a setting's value (spec §5 Settings), run by the server on PATCH
 * /api/settings/:id and by the console's edit dialog on what it is about to send, so both give
 * the same verdict. Code shared by server/ and the console lives under contract/: it may not
 * import from either side.
 */

/** The setting types of spec §3 (the manifest's enum). */
export type SettingType = 'string' | 'longString' | 'password' | 'number' | 'boolean' | 'enum' | 'stringList' | 'numberList' | 'enumList';

/** Reasons, as locale keys (es: 'Formato Invalido.' / '... Solo se esperan números.'). */
export const FORMAT_REASON = 'validation.setting.format';
export const NUMBERS_REASON = 'validation.setting.numbers';
export const TOO_LONG_REASON = 'validation.setting.tooLong';
export const FORMAT_MESSAGE = 'Formato Invalido.';
export const NUMBERS_MESSAGE = 'Formato Invalido. Solo se esperan números.';

/**
 * Length caps: a setting is a line of configuration, not a document store (a 5 MB value would
 * be loaded on every settings read, and sent to the console on every page). longString gets a
 * page of text; lists a few hundred entries; a number is at most 64 characters as text.
 */
export const MAX_SETTING_LENGTH = { text: 2048, longText: 20_000, items: 200, number: 64 } as const;

export interface SettingShape {
  type: SettingType;
  options?: string[] | null;
  regex?: string | null;
}

export type SettingValueResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { field: string; reason: string }; message: string; max?: number };

/** Digits, an optional sign and decimals: what "only numbers" means (no 1e3, no 0x1f). */
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Checks a value against its setting's type, options and regex and returns the value to store
 * (numbers sent as text become numbers; null, or '' for a number, clears). Errors name the field
 * `value` (or `value.<index>` for a list item). Numbers and number-list items match the regex in
 * their canonical text (`'007'` is checked as `'7'`).
 */
export function validateSettingValue(setting: SettingShape, value: unknown): SettingValueResult {
  const format = (field = 'value'): SettingValueResult => ({ ok: false, error: { field, reason: FORMAT_REASON }, message: FORMAT_MESSAGE });
  const numbers = (field = 'value'): SettingValueResult => ({ ok: false, error: { field, reason: NUMBERS_REASON }, message: NUMBERS_MESSAGE });
  const tooLong = (max: number, field = 'value'): SettingValueResult => ({
    ok: false, error: { field, reason: TOO_LONG_REASON }, message: `The value is too long (at most ${max})`, max,
  });
  const textMax = setting.type === 'longString' ? MAX_SETTING_LENGTH.longText : MAX_SETTING_LENGTH.text;
  const matches = (text: string) => !setting.regex || safeRegex(setting.regex).test(text);
  const inOptions = (text: unknown) => typeof text === 'string' && (setting.options ?? []).includes(text);
  const toNumber = (raw: unknown): number | null => {
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
    return text !== null && NUMBER.test(text) ? Number(text) : null;
  };

  switch (setting.type) {
    case 'string':
    case 'longString':
    case 'password':
      if (value === null) return { ok: true, value: '' };
      if (typeof value === 'string' && value.length > textMax) return tooLong(textMax);
      if (typeof value !== 'string' || !matches(value)) return format();
      return { ok: true, value };
    case 'number': {
      if (value === null || value === '') return { ok: true, value: null };
      if (typeof value === 'string' && value.length > MAX_SETTING_LENGTH.number) return numbers();
      const number = toNumber(value);
      if (number === null) return numbers();
      if (!matches(String(number))) return format();
      return { ok: true, value: number };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return format();
    case 'enum':
      return inOptions(value) ? { ok: true, value } : format();
    case 'stringList':
    case 'numberList':
    case 'enumList': {
      if (value === null) return { ok: true, value: [] };
      if (!Array.isArray(value)) return format();
      if (value.length > MAX_SETTING_LENGTH.items) return tooLong(MAX_SETTING_LENGTH.items);
      const out: unknown[] = [];
      for (const [index, item] of value.entries()) {
        const field = `value.${index}`;
        if (typeof item === 'string' && item.length > MAX_SETTING_LENGTH.text) return tooLong(MAX_SETTING_LENGTH.text, field);
        if (setting.type === 'numberList') {
          const number = toNumber(item);
          if (number === null) return numbers(field);
          if (!matches(String(number))) return format(field);
          out.push(number);
        } else if (setting.type === 'enumList') {
          if (!inOptions(item)) return format(field);
          out.push(item);
        } else {
          if (typeof item !== 'string' || !matches(item)) return format(field);
          out.push(item);
        }
      }
      return { ok: true, value: out };
    }
  }
  return format();
}

/**
 * A pattern that does not compile matches nothing: the value is refused rather than accepted
 * unchecked (patterns come from the setting definitions, so a broken one is a bug to see).
 */
function safeRegex(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch {
    return /(?!)/;
  }
}
