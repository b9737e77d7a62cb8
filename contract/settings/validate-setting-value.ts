/**
 * The one rule for a setting's value (docs/product-rules.md#validation Settings), run by the server on PATCH
 * /api/settings/:id and by the console's edit dialog on what it is about to send, so both give
 * the same verdict. The rules themselves are the JSON Schemas of setting-value-schemas.ts,
 * precompiled by the generator (contract/generated/setting-value-validators.ts); this module
 * builds what they check and turns their errors into one reason. Code shared by server/ and the
 * console lives under contract/: it may not import from either side.
 */
import type { ErrorObject } from 'ajv';
import { settingValueValidators } from '../generated/setting-value-validators.ts';
import { FORMAT_REASON, INTEGER_REASON, MAX_REASON, MIN_REASON, NUMBERS_REASON, NUMBER_SOURCE, REQUIRED_REASON, TOO_LONG_REASON, type SettingType } from './setting-value-schemas.ts';
import { SETTING_NUMBER_RULES } from './setting-number-rules.ts';

export { FORMAT_REASON, INTEGER_REASON, MAX_REASON, MAX_SETTING_LENGTH, MIN_REASON, NUMBERS_REASON, REQUIRED_REASON, SETTING_TYPES, TOO_LONG_REASON, type SettingType } from './setting-value-schemas.ts';
export { SETTING_NUMBER_RULES, type SettingNumberRule } from './setting-number-rules.ts';

/** The reasons' Spanish texts (docs/product-rules.md#validation), for API answers; the console shows its locale's. */
export const FORMAT_MESSAGE = 'Formato Invalido.';
export const NUMBERS_MESSAGE = 'Formato Invalido. Solo se esperan números.';

export interface SettingShape {
  /** Picks the number bounds of setting-number-rules.ts (none without it). */
  key?: string;
  type: SettingType;
  options?: string[] | null;
  regex?: string | null;
}

export type SettingValueResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { field: string; reason: string }; message: string; max?: number; min?: number };

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
const VALIDATORS = settingValueValidators as Record<SettingType, Validator>;
const NUMBER = new RegExp(NUMBER_SOURCE);
const LIST_TYPES: ReadonlySet<SettingType> = new Set(['stringList', 'numberList', 'enumList']);

/** Whether the type's value is a list (stringList, numberList, enumList). */
export const isListType = (type: SettingType): boolean => LIST_TYPES.has(type);
/** When two problems are found in the same place, the one reported (the length before the form). */
const REASON_RANK: Record<string, number> = { [REQUIRED_REASON]: 0, [TOO_LONG_REASON]: 0, [NUMBERS_REASON]: 1, [FORMAT_REASON]: 2, [INTEGER_REASON]: 3, [MIN_REASON]: 4, [MAX_REASON]: 4 };

/**
 * Checks a value against its setting's type, options and regex and returns the value to store
 * (numbers sent as text become numbers; null, or '' for a number, clears). Errors name the field
 * `value` (or `value.<index>` for a list item). Numbers and number-list items match the regex in
 * their canonical text (`'007'` is checked as `'7'`). A regex that does not compile matches
 * nothing: the value is refused rather than accepted unchecked.
 */
export function validateSettingValue(setting: SettingShape, value: unknown): SettingValueResult {
  const validate = VALIDATORS[setting.type];
  if (!validate) throw new Error(`validateSettingValue: unknown setting type "${String(setting.type)}"; fix: use one of the types of contract/settings/setting-value-schemas.ts`);
  if (validate(candidateOf(setting, value))) return { ok: true, value: storedValue(setting.type, value) };
  return failure(firstProblem(validate.errors ?? []));
}

/** A number as text: JSON numbers as they print, text as sent, anything else unchanged (and refused). */
const typedText = (raw: unknown): unknown => (typeof raw === 'number' ? String(raw) : raw);

/** The stored number's text when the value is a number, else null. */
function canonicalText(raw: unknown): string | null {
  const text = typedText(raw);
  if (typeof text !== 'string' || !NUMBER.test(text.trim())) return null;
  return String(Number(text.trim()));
}

/**
 * A number as the setting stores it, from a JSON number or its text (spaces trimmed), or null
 * when it is no number in the sense of docs/product-rules.md#validation (digits, a sign, decimals: no 1e3, no 0x1f).
 */
export function settingNumber(raw: unknown): number | null {
  const text = canonicalText(raw);
  return text === null ? null : Number(text);
}

/** What the type's schema checks: the value (numbers as text), their canonical text, and the setting's regex and options. */
function candidateOf(setting: SettingShape, value: unknown): Record<string, unknown> {
  const candidate: Record<string, unknown> = { value, options: setting.options ?? [] };
  // An empty regex, like none, checks nothing.
  if (setting.regex) candidate.regex = setting.regex;
  if (setting.type === 'number') {
    candidate.value = typedText(value);
    candidate.canonical = canonicalText(value);
    const rule = (setting.key && Object.hasOwn(SETTING_NUMBER_RULES, setting.key) ? SETTING_NUMBER_RULES[setting.key] : undefined) ?? {};
    candidate.number = settingNumber(value);
    if (rule.min !== undefined) candidate.min = rule.min;
    if (rule.max !== undefined) candidate.max = rule.max;
    if (rule.integer) candidate.step = 1;
    if (rule.required) candidate.present = !(value === null || value === undefined || (typeof value === 'string' && value.trim() === ''));
  } else if (setting.type === 'numberList' && Array.isArray(value)) {
    candidate.value = value.map(typedText);
    candidate.canonical = value.map(canonicalText);
  }
  return candidate;
}

/** The valid value as stored. */
function storedValue(type: SettingType, value: unknown): unknown {
  switch (type) {
    case 'number':
      return value === null || value === '' ? null : settingNumber(value);
    case 'boolean':
      return value === true || value === 'true';
    case 'numberList':
      return ((value ?? []) as unknown[]).map(settingNumber);
    default:
      if (isListType(type)) return value ?? [];
      return type === 'enum' ? value : (value ?? '');
  }
}

interface Problem { field: string; index: number; reason: string; max?: number; min?: number }

/** Each AJV error as a field and reason; the first in the value's order is the one reported. */
function firstProblem(errors: ErrorObject[]): Problem {
  const problems = errors.map((error): Problem => {
    // /value, /value/3, /canonical/3 (a number's regex is checked on its canonical text).
    const [, , item] = error.instancePath.split('/');
    const reasons = (error.parentSchema?.['x-reasons'] ?? {}) as Record<string, string>;
    const reason = reasons[error.keyword] ?? FORMAT_REASON;
    const limit = (error.params as { limit?: unknown }).limit;
    return {
      field: item === undefined || error.instancePath === '/number' || error.instancePath === '/present' ? 'value' : `value.${item}`,
      index: item === undefined || error.instancePath === '/number' || error.instancePath === '/present' ? -1 : Number(item),
      reason,
      ...((reason === TOO_LONG_REASON || reason === MAX_REASON) && typeof limit === 'number' ? { max: limit } : {}),
      ...(reason === MIN_REASON && typeof limit === 'number' ? { min: limit } : {}),
    };
  });
  problems.sort((a, b) => a.index - b.index || (REASON_RANK[a.reason] ?? 9) - (REASON_RANK[b.reason] ?? 9));
  return problems[0] ?? { field: 'value', index: -1, reason: FORMAT_REASON };
}

/** English texts of the bounds' reasons, for API answers (the console shows its locale's). */
const BOUND_MESSAGES: Record<string, (problem: Problem) => string> = {
  [REQUIRED_REASON]: () => 'A value is required: this setting cannot be empty',
  [MIN_REASON]: (problem) => `The value must be at least ${problem.min}`,
  [MAX_REASON]: (problem) => `The value must be at most ${problem.max}`,
  [INTEGER_REASON]: () => 'The value must be a whole number',
};

function failure(problem: Problem): SettingValueResult {
  const error = { field: problem.field, reason: problem.reason };
  if (problem.reason === TOO_LONG_REASON) return { ok: false, error, message: `The value is too long (at most ${problem.max})`, max: problem.max };
  const bound = BOUND_MESSAGES[problem.reason];
  if (bound) return { ok: false, error, message: bound(problem), ...(problem.max !== undefined ? { max: problem.max } : {}), ...(problem.min !== undefined ? { min: problem.min } : {}) };
  return { ok: false, error, message: problem.reason === NUMBERS_REASON ? NUMBERS_MESSAGE : FORMAT_MESSAGE };
}
