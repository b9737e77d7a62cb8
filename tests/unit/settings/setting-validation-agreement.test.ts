import { describe, expect, it } from 'vitest';
import { SETTING_NUMBER_RULES, validateSettingValue, type SettingShape } from '../../../contract/settings/validate-setting-value.ts';
import { SETTING_DEFINITIONS } from '../../../server/settings/setting-definitions.ts';
import { describeSettingError, fromDraft, validateSetting, type DraftValue } from '../../../src/settings/setting-value.ts';
import es from '../../../locales/es.json';

/**
 * The console's edit dialog and PATCH /api/settings/:id give the same verdict: for each draft,
 * the dialog's error (validateSetting) and the server's answer to what the dialog sends
 * (validateSettingValue on fromDraft(draft), as settings-store.ts runs it) are both the expected
 * one. The rows include every case where the two used to disagree (marked "was:").
 */

type Verdict = null | 'format' | 'numbers' | 'tooLong' | 'required' | 'min' | 'max' | 'integer';
const CLIENT_KEY: Record<Exclude<Verdict, null>, string> = {
  format: 'settings.invalidFormat',
  numbers: 'settings.onlyNumbers',
  tooLong: 'validation.setting.tooLong',
  required: 'validation.required',
  min: 'validation.min',
  max: 'validation.max',
  integer: 'validation.integer',
};
const SERVER_REASON: Record<Exclude<Verdict, null>, string> = {
  format: 'validation.setting.format',
  numbers: 'validation.setting.numbers',
  tooLong: 'validation.setting.tooLong',
  required: 'validation.required',
  min: 'validation.min',
  max: 'validation.max',
  integer: 'validation.integer',
};

const shape = (type: SettingShape['type'], extra: Partial<SettingShape> = {}): SettingShape => ({ type, options: null, regex: null, ...extra });
const URL_REGEX = '^(https?://\\S+)?$';
const long = (n: number) => 'x'.repeat(n);

const rows: [string, SettingShape, DraftValue, Verdict][] = [
  ['string free text', shape('string'), 'hola', null],
  ['string empty', shape('string'), '', null],
  ['string regex match', shape('string', { regex: URL_REGEX }), 'https://h.example/v1', null],
  ['string regex empty allowed by the regex', shape('string', { regex: URL_REGEX }), '', null],
  ['string regex refused', shape('string', { regex: URL_REGEX }), 'ftp://h', 'format'],
  ['string at the cap', shape('string'), long(2048), null],
  ['string over the cap (was: dialog accepted)', shape('string'), long(2049), 'tooLong'],
  ['longString over 2,048', shape('longString'), long(5000), null],
  ['longString over the cap (was: dialog accepted)', shape('longString'), long(20_001), 'tooLong'],
  ['password typed', shape('password'), 'sk-123', null],
  ['password empty (keeps the stored one)', shape('password'), '', null],
  ['password over the cap (was: dialog accepted)', shape('password'), long(2049), 'tooLong'],
  ['broken regex refuses (was: dialog accepted)', shape('string', { regex: '([' }), 'x', 'format'],
  ['number digits', shape('number'), '60000', null],
  ['number spaces', shape('number'), ' 42 ', null],
  ['number negative decimal', shape('number'), '-1.5', null],
  ['number letters', shape('number'), '12a', 'numbers'],
  ['number exponent', shape('number'), '6e4', 'numbers'],
  ['number hex', shape('number'), '0x1f', 'numbers'],
  ['number empty clears (was: dialog refused)', shape('number'), '', null],
  ['number over 64 characters', shape('number'), '1'.repeat(65), 'numbers'],
  ['number regex on its value', shape('number', { regex: '^\\d{4}$' }), '2525', null],
  ['number regex refused', shape('number', { regex: '^\\d{4}$' }), '25', 'format'],
  ['number with a decimal comma (Spanish)', shape('number'), '0,5', null],
  ['number with two commas', shape('number'), '1,000,5', 'numbers'],
  ['timeout negative (was: accepted)', shape('number', { key: 'llm.timeoutMs' }), '-5', 'min'],
  ['timeout zero', shape('number', { key: 'llm.timeoutMs' }), '0', 'min'],
  ['timeout decimal (was: accepted)', shape('number', { key: 'llm.timeoutMs' }), '1.5', 'integer'],
  ['timeout decimal comma', shape('number', { key: 'llm.timeoutMs' }), '1,5', 'integer'],
  ['timeout empty (was: saved as null)', shape('number', { key: 'llm.timeoutMs' }), '', 'required'],
  ['timeout blank', shape('number', { key: 'llm.timeoutMs' }), '   ', 'required'],
  ['timeout above 10 minutes', shape('number', { key: 'llm.timeoutMs' }), '600001', 'max'],
  ['timeout in range', shape('number', { key: 'llm.timeoutMs' }), '1', null],
  ['timeout letters stay "only numbers"', shape('number', { key: 'llm.timeoutMs' }), 'abc', 'numbers'],
  ['port above 65535 (was: accepted)', shape('number', { key: 'smtp.port' }), '99999', 'max'],
  ['port 65535', shape('number', { key: 'smtp.port' }), '65535', null],
  ['port 0', shape('number', { key: 'smtp.port' }), '0', 'min'],
  ['port decimal', shape('number', { key: 'smtp.port' }), '25.5', 'integer'],
  ['port empty clears (falls back to 587)', shape('number', { key: 'smtp.port' }), '', null],
  ['boolean on', shape('boolean'), true, null],
  ['boolean off', shape('boolean'), false, null],
  ['enum option', shape('enum', { options: ['auto', 'offline'] }), 'auto', null],
  ['enum other', shape('enum', { options: ['auto', 'offline'] }), 'other', 'format'],
  ['enum without options (was: dialog accepted)', shape('enum', { options: [] }), 'x', 'format'],
  ['enum nothing chosen', shape('enum', { options: ['auto'] }), '', 'format'],
  ['stringList items match', shape('stringList', { regex: '^[a-z]+$' }), ['abc', 'de'], null],
  ['stringList item refused', shape('stringList', { regex: '^[a-z]+$' }), ['abc', 'D'], 'format'],
  ['stringList empty', shape('stringList'), [], null],
  ['stringList item over the cap (was: dialog accepted)', shape('stringList'), ['a', long(2049)], 'tooLong'],
  ['stringList over 200 items (was: dialog accepted)', shape('stringList'), Array.from({ length: 201 }, (_, i) => `i${i}`), 'tooLong'],
  ['numberList digits', shape('numberList'), ['1', ' 22 '], null],
  ['numberList letters', shape('numberList'), ['1', 'x'], 'numbers'],
  ['numberList regex on items (was: server ignored it)', shape('numberList', { regex: '^\\d$' }), ['1', '22'], 'format'],
  ['enumList options', shape('enumList', { options: ['a', 'b'] }), ['b', 'a'], null],
  ['enumList other', shape('enumList', { options: ['a', 'b'] }), ['c'], 'format'],
  ['enumList without options (was: dialog accepted)', shape('enumList', { options: [] }), ['c'], 'format'],
];

describe('console and server agree on setting values', () => {
  for (const [name, setting, draft, expected] of rows) {
    it(name, () => {
      const client = validateSetting(setting, draft);
      const server = validateSettingValue(setting, fromDraft(setting.type, draft));
      expect(client, 'console').toBe(expected === null ? null : CLIENT_KEY[expected]);
      expect(server.ok ? null : server.error.reason, 'server').toBe(expected === null ? null : SERVER_REASON[expected]);
    });
  }

  it('on every real setting, with its seeded value as the draft: both accept', () => {
    for (const definition of Object.values(SETTING_DEFINITIONS)) {
      const setting = { key: definition.key, type: definition.type, options: definition.options ?? null, regex: definition.regex ?? null };
      const draft: DraftValue = typeof definition.value === 'boolean' ? definition.value : Array.isArray(definition.value) ? definition.value.map(String) : String(definition.value ?? '');
      expect(validateSetting(setting, draft), definition.key).toBeNull();
      expect(validateSettingValue(setting, fromDraft(setting.type, draft)).ok, definition.key).toBe(true);
    }
  });

  it('every number rule names a number setting, and each bound refuses just past it on both sides', () => {
    for (const [key, rule] of Object.entries(SETTING_NUMBER_RULES)) {
      expect(SETTING_DEFINITIONS[key]?.type, key).toBe('number');
      const setting = shape('number', { key });
      if (rule.min !== undefined) {
        expect(validateSetting(setting, String(rule.min)), key).toBeNull();
        expect(validateSetting(setting, String(rule.min - 1)), key).toBe('validation.min');
      }
      if (rule.max !== undefined) {
        expect(validateSetting(setting, String(rule.max)), key).toBeNull();
        expect(validateSetting(setting, String(rule.max + 1)), key).toBe('validation.max');
      }
      if (rule.integer) expect(validateSettingValue(setting, (rule.min ?? 0) + 0.5), key).toMatchObject({ ok: false, error: { reason: 'validation.integer' } });
      expect(validateSettingValue(setting, null).ok, key).toBe(!rule.required);
    }
    // The reason's bound reaches the dialog's message.
    expect(describeSettingError(shape('number', { key: 'smtp.port' }), '99999')).toEqual({ key: 'validation.max', params: { max: 65535 } });
    expect(describeSettingError(shape('number', { key: 'llm.timeoutMs' }), '-5')).toEqual({ key: 'validation.min', params: { min: 1 } });
  });

  it('keeps docs/product-rules.md#validation messages', () => {
    const messages = (es as { settings: Record<string, string> }).settings;
    expect(messages.invalidFormat).toBe('Formato Invalido.');
    expect(messages.onlyNumbers).toBe('Formato Invalido. Solo se esperan números.');
    expect(validateSettingValue(shape('number'), 'x')).toMatchObject({ message: 'Formato Invalido. Solo se esperan números.' });
    expect(validateSettingValue(shape('boolean'), 'x')).toMatchObject({ message: 'Formato Invalido.' });
  });
});
