import { describe, expect, it } from 'vitest';
import { FIELD_TYPES } from '../../contract/model/entity-model.ts';
import { FIELD_TYPE_REGISTRY, fieldType } from '../../contract/field-types/field-types.ts';
import { UNCONVERTIBLE } from '../../contract/field-types/convert-value.ts';

describe('field-type registry', () => {
  it('has one definition per field type, named for its key, and fails loudly on an unknown one', () => {
    expect(Object.keys(FIELD_TYPE_REGISTRY).sort()).toEqual([...FIELD_TYPES].sort());
    for (const type of FIELD_TYPES) expect(fieldType(type).name).toBe(type);
    for (const unknown of ['strng', 'array.date', '', 'toString', '__proto__']) {
      expect(() => fieldType(unknown)).toThrow(`Unknown field type "${unknown}"`);
    }
  });

  const plain = { values: null, integer: false };
  it.each([
    ['number', 'string', '12', 12], ['number', 'string', ' 3.5 ', 3.5], ['number', 'enum', '-4', -4],
    ['number', 'string', '12 apples', UNCONVERTIBLE], ['number', 'string', '', UNCONVERTIBLE], ['number', 'string', 'Infinity', UNCONVERTIBLE],
    ['string', 'number', 7, '7'], ['boolean', 'string', 'true', true], ['boolean', 'number', 2, UNCONVERTIBLE],
    ['date', 'string', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.000Z'], ['date', 'string', 'tomorrow', UNCONVERTIBLE],
    ['array.string', 'string', 'a', ['a']], ['array.number', 'array.string', ['1', '2'], [1, 2]], ['array.number', 'array.string', ['1', 'x'], UNCONVERTIBLE],
  ] as const)('%s from %s: %j -> %j', (to, from, value, expected) => {
    expect(fieldType(to).convertsFrom[from]!(value, plain)).toEqual(expected);
  });

  it('checks enum values and integers against the target field', () => {
    const toEnum = fieldType('enum').convertsFrom.string!;
    expect(toEnum('low', { values: ['low', 'high'], integer: false })).toBe('low');
    expect(toEnum('medium', { values: ['low', 'high'], integer: false })).toBe(UNCONVERTIBLE);
    const toInteger = fieldType('number').convertsFrom.number!;
    expect(toInteger(3, { values: null, integer: true })).toBe(3);
    expect(toInteger(3.5, { values: null, integer: true })).toBe(UNCONVERTIBLE);
  });

  it('accepts no conversion into types whose values cannot be derived', () => {
    for (const type of ['password', 'fullFile', 'object'] as const) expect(fieldType(type).convertsFrom).toEqual({});
  });
});
