/**
 * One JSON Schema per setting type (docs/product-rules.md#entities Setting types, #validation Settings rules): what PATCH
 * /api/settings/:id accepts as `value`, and what the console's edit dialog checks before sending.
 * The generator compiles these with AJV into contract/generated/setting-value-validators.ts
 * (standalone code: the console runs under a CSP without 'unsafe-eval', so nothing compiles a
 * schema at run time, in the browser or on the server).
 *
 * Each schema validates a candidate `{ value, canonical?, regex?, options }`, built by
 * validate-setting-value.ts from the wire value and the setting's definition: the setting's own
 * regex and options reach the schema as data (`$data`), so one schema serves every setting of a
 * type. `canonical` holds a number's text as stored ('007' is checked against the regex as '7').
 * `x-reasons` names, per failed keyword, the reason reported (the default is the format reason).
 */

/** The setting types of docs/product-rules.md#entities (the manifest's enum). */
export const SETTING_TYPES = ['string', 'longString', 'password', 'number', 'boolean', 'enum', 'stringList', 'numberList', 'enumList'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** Reasons, as locale keys (es: 'Formato Invalido.' / '... Solo se esperan números.' / too long). */
export const FORMAT_REASON = 'validation.setting.format';
export const NUMBERS_REASON = 'validation.setting.numbers';
export const TOO_LONG_REASON = 'validation.setting.tooLong';
/** A number setting's bounds (setting-number-rules.ts), with the form's own messages. */
export const REQUIRED_REASON = 'validation.required';
export const MIN_REASON = 'validation.min';
export const MAX_REASON = 'validation.max';
export const INTEGER_REASON = 'validation.integer';

/**
 * Length caps: a setting is a line of configuration, not a document store (a 5 MB value would
 * be loaded on every settings read, and sent to the console on every page). longString gets a
 * page of text; lists a few hundred entries; a number is at most 64 characters as text.
 */
export const MAX_SETTING_LENGTH = { text: 2048, longText: 20_000, items: 200, number: 64 } as const;

/** Digits, an optional sign and decimals: what "only numbers" means (no 1e3, no 0x1f). */
export const NUMBER_SOURCE = '^-?\\d+(\\.\\d+)?$';
/** A number as typed: surrounding spaces allowed (they are trimmed before storing). */
const TYPED_NUMBER = '^\\s*-?\\d+(\\.\\d+)?\\s*$';

type Schema = Record<string, unknown>;

/** The setting's regex, read from the candidate; `up` is how many levels above the checked value it sits. */
const matchesRegex = (up: number): Schema => ({ pattern: { $data: `${up}/regex` } });
/** A number's canonical text, or null for a value that is no number (refused for that already). */
const canonicalNumber = (up: number): Schema => ({ type: ['string', 'null'], ...matchesRegex(up) });
const inOptions = (up: number): Schema => ({ type: 'string', enum: { $data: `${up}/options` } });

const text = (max: number): Schema => ({ type: ['string', 'null'], maxLength: max, ...matchesRegex(1), 'x-reasons': { maxLength: TOO_LONG_REASON } });
const textItem: Schema = { type: 'string', maxLength: MAX_SETTING_LENGTH.text, ...matchesRegex(2), 'x-reasons': { maxLength: TOO_LONG_REASON } };
/** A number as sent: its text (JSON numbers arrive as their text), or '' / null to clear. */
const typedNumber: Schema = {
  type: ['string', 'null'],
  maxLength: MAX_SETTING_LENGTH.number,
  pattern: `^$|${TYPED_NUMBER}`,
  'x-reasons': { type: NUMBERS_REASON, maxLength: NUMBERS_REASON, pattern: NUMBERS_REASON },
};
/**
 * The number's bounds, read from the candidate (`min`, `max`, `step` 1 for whole numbers; absent
 * ones check nothing) and `present` (set only when the setting may not be empty).
 */
const numberBounds: Schema = {
  number: {
    type: ['number', 'null'],
    minimum: { $data: '1/min' },
    maximum: { $data: '1/max' },
    multipleOf: { $data: '1/step' },
    'x-reasons': { minimum: MIN_REASON, maximum: MAX_REASON, multipleOf: INTEGER_REASON },
  },
  present: { const: true, 'x-reasons': { const: REQUIRED_REASON } },
  min: { type: 'number' },
  max: { type: 'number' },
  step: { type: 'number' },
};
const typedNumberItem: Schema = { ...typedNumber, type: 'string', pattern: TYPED_NUMBER };
const list = (items: Schema): Schema => ({ type: ['array', 'null'], maxItems: MAX_SETTING_LENGTH.items, items, 'x-reasons': { maxItems: TOO_LONG_REASON } });

const candidate = (type: SettingType, properties: Schema): Schema => ({
  $id: `setting-value.${type}`,
  type: 'object',
  properties: { regex: { type: 'string' }, options: { type: 'array', items: { type: 'string' } }, ...properties },
  required: ['value', 'options'],
});

export const SETTING_VALUE_SCHEMAS: Record<SettingType, Schema> = {
  string: candidate('string', { value: text(MAX_SETTING_LENGTH.text) }),
  longString: candidate('longString', { value: text(MAX_SETTING_LENGTH.longText) }),
  password: candidate('password', { value: text(MAX_SETTING_LENGTH.text) }),
  number: candidate('number', { value: typedNumber, canonical: canonicalNumber(1), ...numberBounds }),
  boolean: candidate('boolean', { value: { enum: [true, false, 'true', 'false'] } }),
  enum: candidate('enum', { value: inOptions(1) }),
  stringList: candidate('stringList', { value: list(textItem) }),
  numberList: candidate('numberList', { value: list(typedNumberItem), canonical: { type: 'array', items: canonicalNumber(2) } }),
  enumList: candidate('enumList', { value: list({ ...inOptions(2), maxLength: MAX_SETTING_LENGTH.text, 'x-reasons': { maxLength: TOO_LONG_REASON } }) }),
};
