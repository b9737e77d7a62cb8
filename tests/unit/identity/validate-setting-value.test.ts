import { describe, expect, test } from 'vitest';
import { validateSettingValue, type SettingShape } from '../../../contract/settings/validate-setting-value.ts';

const shape = (type: SettingShape['type'], extra: Partial<SettingShape> = {}): SettingShape => ({ type, options: null, regex: null, ...extra });
const ok = (value: unknown) => ({ ok: true, value });
const format = (field = 'value') => ({ ok: false, error: { field, reason: 'validation.setting.format' }, message: 'Formato Invalido.' });
const numbers = (field = 'value') => ({ ok: false, error: { field, reason: 'validation.setting.numbers' }, message: 'Formato Invalido. Solo se esperan números.' });

describe('setting values by type', () => {
  test.each([
    ['string', shape('string'), 'hello', ok('hello')],
    ['string regex', shape('string', { regex: '^[a-z]+$' }), 'Hello', format()],
    ['longString', shape('longString'), 'a\nb', ok('a\nb')],
    ['password', shape('password'), 12, format()],
    ['number text', shape('number'), '42', ok(42)],
    ['number decimal', shape('number'), 1.5, ok(1.5)],
    ['number letters', shape('number'), '4x', numbers()],
    ['number empty clears', shape('number'), '', ok(null)],
    ['boolean', shape('boolean'), 'false', ok(false)],
    ['boolean other', shape('boolean'), 1, format()],
    ['enum in options', shape('enum', { options: ['a', 'b'] }), 'b', ok('b')],
    ['enum outside', shape('enum', { options: ['a', 'b'] }), 'c', format()],
    ['stringList', shape('stringList', { regex: '^\\d{3}$' }), ['123', '456'], ok(['123', '456'])],
    ['stringList item', shape('stringList', { regex: '^\\d{3}$' }), ['123', '45'], format('value.1')],
    ['numberList', shape('numberList'), ['1', 2], ok([1, 2])],
    ['numberList item', shape('numberList'), [1, 'two'], numbers('value.1')],
    ['enumList', shape('enumList', { options: ['x', 'y'] }), ['y', 'x'], ok(['y', 'x'])],
    ['enumList item', shape('enumList', { options: ['x', 'y'] }), ['z'], format('value.0')],
    ['list not a list', shape('stringList'), 'a,b', format()],
  ])('%s', (_name, setting, value, expected) => {
    expect(validateSettingValue(setting, value)).toEqual(expected);
  });

  test('a broken stored regex refuses instead of throwing', () => {
    expect(validateSettingValue(shape('string', { regex: '([' }), 'x')).toEqual(format());
  });
});
