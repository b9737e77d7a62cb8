import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSettingAjv, emitSettingValidators, SETTING_VALIDATORS_FILE } from '../../../generator/emit/contract/emit-setting-validators.ts';
import { SETTING_TYPES, SETTING_VALUE_SCHEMAS } from '../../../contract/settings/setting-value-schemas.ts';
import { settingValueValidators } from '../../../contract/generated/setting-value-validators.ts';
import { settingNumber, validateSettingValue, type SettingShape } from '../../../contract/settings/validate-setting-value.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const shape = (type: SettingShape['type'], extra: Partial<SettingShape> = {}): SettingShape => ({ type, options: null, regex: null, ...extra });
const reasonOf = (setting: SettingShape, value: unknown) => {
  const checked = validateSettingValue(setting, value);
  return checked.ok ? null : { field: checked.error.field, reason: checked.error.reason.replace('validation.setting.', ''), ...(checked.max === undefined ? {} : { max: checked.max }) };
};

describe('one JSON Schema per setting type, precompiled', () => {
  it('has a schema and a precompiled validator for every type, and the generated file is current', () => {
    expect(Object.keys(SETTING_VALUE_SCHEMAS).sort()).toEqual([...SETTING_TYPES].sort());
    expect(Object.keys(settingValueValidators).sort()).toEqual([...SETTING_TYPES].sort());
    const [[file, content]] = [...emitSettingValidators()];
    expect(file).toBe(SETTING_VALIDATORS_FILE);
    expect(readFileSync(path.join(ROOT, file!), 'utf8'), 'run `npm run generate`').toBe(content);
  });

  it('the generated code needs no eval and no CommonJS (the console CSP has no unsafe-eval)', () => {
    const content = readFileSync(path.join(ROOT, SETTING_VALIDATORS_FILE), 'utf8');
    expect(content).not.toMatch(/new Function|\beval\(|require\(/);
  });

  it('the precompiled validators give AJV\'s own verdict on the same schemas', () => {
    const ajv = createSettingAjv();
    const candidates: Record<string, unknown>[] = [
      { value: 'abc', options: [] }, { value: 'abc', regex: '^\\d+$', options: [] }, { value: null, options: [] }, { value: 7, options: [] },
      { value: ' 42 ', canonical: '42', options: [] }, { value: '4x', canonical: null, options: [] }, { value: true, options: [] },
      { value: 'b', options: ['a', 'b'] }, { value: ['a', 'z'], options: ['a'] }, { value: ['1', 'x'], canonical: ['1', null], options: [] },
      { value: 'x'.repeat(2049), options: [] }, { value: 'x', regex: '([', options: [] },
    ];
    for (const type of SETTING_TYPES) {
      const reference = ajv.compile(SETTING_VALUE_SCHEMAS[type]);
      const precompiled = (settingValueValidators as Record<string, (data: unknown) => boolean>)[type]!;
      for (const candidate of candidates) expect(precompiled(candidate), `${type} ${JSON.stringify(candidate).slice(0, 60)}`).toBe(reference(candidate));
    }
  });
});

describe('bad inputs, type by type', () => {
  it('string, longString, password: not text, too long, regex', () => {
    for (const type of ['string', 'longString', 'password'] as const) {
      expect(reasonOf(shape(type), 12), type).toEqual({ field: 'value', reason: 'format' });
      expect(reasonOf(shape(type), ['a']), type).toEqual({ field: 'value', reason: 'format' });
      expect(reasonOf(shape(type), { a: 1 }), type).toEqual({ field: 'value', reason: 'format' });
      expect(reasonOf(shape(type, { regex: '^[a-z]+$' }), 'ABC'), type).toEqual({ field: 'value', reason: 'format' });
    }
    expect(reasonOf(shape('string'), 'x'.repeat(2049))).toEqual({ field: 'value', reason: 'tooLong', max: 2048 });
    expect(reasonOf(shape('password'), 'x'.repeat(2049))).toEqual({ field: 'value', reason: 'tooLong', max: 2048 });
    expect(reasonOf(shape('longString'), 'x'.repeat(20_001))).toEqual({ field: 'value', reason: 'tooLong', max: 20_000 });
    // Too long is reported before a regex that also fails.
    expect(reasonOf(shape('string', { regex: '^a$' }), 'x'.repeat(3000))).toEqual({ field: 'value', reason: 'tooLong', max: 2048 });
  });

  it('number: anything but digits, too long, regex on the canonical text', () => {
    for (const bad of ['4x', '6e4', '0x1f', '1,5', '--1', '.5', ' ', true, [], {}, Infinity, 1e21]) {
      expect(reasonOf(shape('number'), bad), String(bad)).toEqual({ field: 'value', reason: 'numbers' });
    }
    expect(reasonOf(shape('number'), '1'.repeat(65))).toEqual({ field: 'value', reason: 'numbers' });
    expect(reasonOf(shape('number', { regex: '^\\d{4}$' }), '25')).toEqual({ field: 'value', reason: 'format' });
    // '007' is checked as the 7 it stores.
    expect(reasonOf(shape('number', { regex: '^0' }), '007')).toEqual({ field: 'value', reason: 'format' });
    expect(validateSettingValue(shape('number', { regex: '^7$' }), ' 007 ')).toEqual({ ok: true, value: 7 });
    expect(validateSettingValue(shape('number'), null)).toEqual({ ok: true, value: null });
  });

  it('boolean: only true/false or their text', () => {
    for (const bad of [1, 0, 'yes', 'TRUE', '', null, []]) expect(reasonOf(shape('boolean'), bad), String(bad)).toEqual({ field: 'value', reason: 'format' });
    expect(validateSettingValue(shape('boolean'), 'true')).toEqual({ ok: true, value: true });
  });

  it('enum: one of the options, nothing else', () => {
    const setting = shape('enum', { options: ['auto', 'offline'] });
    for (const bad of ['Auto', '', null, 1, ['auto'], { auto: true }]) expect(reasonOf(setting, bad), JSON.stringify(bad)).toEqual({ field: 'value', reason: 'format' });
    expect(reasonOf(shape('enum'), 'auto')).toEqual({ field: 'value', reason: 'format' });
  });

  it('stringList: a list of text, each matching the regex, within the caps', () => {
    const setting = shape('stringList', { regex: '^[a-z]+$' });
    expect(reasonOf(setting, 'a,b')).toEqual({ field: 'value', reason: 'format' });
    expect(reasonOf(setting, ['a', 2])).toEqual({ field: 'value.1', reason: 'format' });
    expect(reasonOf(setting, ['a', 'b', 'C', 'D'])).toEqual({ field: 'value.2', reason: 'format' });
    expect(reasonOf(setting, ['a', 'x'.repeat(2049)])).toEqual({ field: 'value.1', reason: 'tooLong', max: 2048 });
    // The item count is reported before any item.
    expect(reasonOf(setting, Array.from({ length: 201 }, () => 'A'))).toEqual({ field: 'value', reason: 'tooLong', max: 200 });
    expect(validateSettingValue(setting, null)).toEqual({ ok: true, value: [] });
  });

  it('numberList: digits per item, regex per item on its canonical text, the first bad item reported', () => {
    expect(reasonOf(shape('numberList'), '1,2')).toEqual({ field: 'value', reason: 'format' });
    expect(reasonOf(shape('numberList'), [1, 'two', 3])).toEqual({ field: 'value.1', reason: 'numbers' });
    expect(reasonOf(shape('numberList'), [1, null])).toEqual({ field: 'value.1', reason: 'numbers' });
    expect(reasonOf(shape('numberList', { regex: '^\\d$' }), ['1', '22', 'x'])).toEqual({ field: 'value.1', reason: 'format' });
    expect(reasonOf(shape('numberList', { regex: '^\\d$' }), ['x', '22'])).toEqual({ field: 'value.0', reason: 'numbers' });
    expect(reasonOf(shape('numberList'), Array.from({ length: 201 }, () => 1))).toEqual({ field: 'value', reason: 'tooLong', max: 200 });
    expect(validateSettingValue(shape('numberList'), [' 1 ', 2.5, '-3'])).toEqual({ ok: true, value: [1, 2.5, -3] });
  });

  it('enumList: every item one of the options', () => {
    const setting = shape('enumList', { options: ['a', 'b'] });
    expect(reasonOf(setting, 'a')).toEqual({ field: 'value', reason: 'format' });
    expect(reasonOf(setting, ['a', 'c'])).toEqual({ field: 'value.1', reason: 'format' });
    expect(reasonOf(setting, ['a', 1])).toEqual({ field: 'value.1', reason: 'format' });
    expect(reasonOf(shape('enumList'), ['a'])).toEqual({ field: 'value.0', reason: 'format' });
    expect(validateSettingValue(setting, [])).toEqual({ ok: true, value: [] });
  });

  it('an unknown type is a loud error naming the fix', () => {
    expect(() => validateSettingValue({ type: 'color' as SettingShape['type'] }, 'red')).toThrow(/unknown setting type "color".*fix/);
  });

  it('settingNumber: the one definition of a number the console sends', () => {
    expect(settingNumber(' 007 ')).toBe(7);
    expect(settingNumber(-1.5)).toBe(-1.5);
    expect(settingNumber('6e4')).toBeNull();
    expect(settingNumber('')).toBeNull();
  });
});
