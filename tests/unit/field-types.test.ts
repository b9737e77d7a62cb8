import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldType } from '../../contract/model/entity-model.ts';
import { FIELD_TYPE_REGISTRY, checkFieldTypeDefinition, fieldType } from '../../contract/field-types/field-types.ts';
import { CELL_KINDS, FIELD_TYPE_FACETS } from '../../contract/field-types/field-type-definition.ts';
import { CSV_REASONS } from '../../contract/field-types/csv-codecs.ts';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };

const LOCALES: Record<string, unknown> = { en, es };
function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
}
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

describe('field-type facets', () => {
  it('every registered type declares every facet', () => {
    for (const type of FIELD_TYPES) {
      const definition = fieldType(type) as unknown as Record<string, unknown>;
      for (const facet of FIELD_TYPE_FACETS) expect(definition[facet], `${type}.${facet}`).not.toBeUndefined();
      expect(CELL_KINDS, `${type}.cell`).toContain(fieldType(type).cell);
      expect(typeof fieldType(type).csv.encode).toBe('function');
      expect(typeof fieldType(type).csv.decode).toBe('function');
      expect(typeof fieldType(type).jsonSchema.input).toBe('function');
      expect(typeof fieldType(type).jsonSchema.record).toBe('function');
    }
  });

  it.each(FIELD_TYPE_FACETS.filter((facet) => facet !== 'name'))('a type without "%s" is refused, naming the type, the facet and the file', (facet) => {
    const incomplete: Record<string, unknown> = { ...fieldType('string'), name: 'colour' };
    delete incomplete[facet];
    expect(() => checkFieldTypeDefinition('colour', incomplete)).toThrow(`Field type "colour" (contract/field-types/colour.ts) does not declare "${facet}"`);
  });

  it('a type listed under another name, or with no definition, is refused', () => {
    expect(() => checkFieldTypeDefinition('colour', { ...fieldType('string') })).toThrow('Field type listed as "colour" is named "string"');
    expect(() => checkFieldTypeDefinition('colour', undefined)).toThrow('Field type "colour" has no definition: export one from contract/field-types/colour.ts');
    expect(() => checkFieldTypeDefinition('colour', {})).toThrow(/does not declare "name", "column", "list", .*"convertsFrom"/);
  });

  it('lists are exactly the array types', () => {
    for (const type of FIELD_TYPES) expect(fieldType(type).list, type).toBe(type.startsWith('array.'));
  });
});

describe('CSV codecs', () => {
  // [type, value as a record holds it (refs: their display values), cell text]
  const SAMPLES: [FieldType, unknown, string][] = [
    ['string', 'Hola, "mundo"', 'Hola, "mundo"'], ['longString', 'a\nb', 'a\nb'], ['password', 'x', 'x'], ['enum', 'low', 'low'],
    ['number', 3.5, '3.5'], ['number', -12, '-12'], ['file', 'uploads/a b.png', 'uploads/a b.png'],
    ['fullFile', { filepath: 'f/a.pdf', size: 3 }, '{"filepath":"f/a.pdf","size":3}'], ['boolean', true, 'true'], ['boolean', false, 'false'],
    ['date', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.000Z'], ['ref', 'Ana', 'Ana'], ['object', { a: 1 }, '{"a":1}'],
    ['array.string', ['a', 'b,c'], '["a","b,c"]'], ['array.enum', ['x'], '["x"]'], ['array.number', [1, 2.5], '[1,2.5]'],
    ['array.ref', ['Ana', 'Bo'], '["Ana","Bo"]'], ['array.object', [{ a: 1 }], '[{"a":1}]'],
  ];

  it.each(SAMPLES)('%s: %j is written as %s and read back', (type, value, cell) => {
    const codec = fieldType(type).csv;
    expect(codec.encode(value, null)).toBe(cell);
    expect(codec.decode(cell)).toEqual({ ok: true, value });
  });

  it('writes nothing as an empty cell, an unset ref list as []', () => {
    for (const type of FIELD_TYPES) expect(fieldType(type).csv.encode(null, null), type).toBe(type === 'array.ref' ? '[]' : '');
  });

  it.each([
    ['number', 'many', 'validation.csv.number'], ['number', '12 apples', 'validation.csv.number'], ['number', 'Infinity', 'validation.csv.number'], ['number', '  ', 'validation.csv.number'],
    ['boolean', 'yes', 'validation.csv.boolean'], ['boolean', '2', 'validation.csv.boolean'],
    ['array.string', '[oops', 'validation.invalidJson'], ['array.ref', 'Ana', 'validation.invalidJson'], ['object', '{a:1}', 'validation.invalidJson'], ['fullFile', 'f.pdf', 'validation.invalidJson'],
  ] as const)('%s refuses %j with %s', (type, cell, reason) => {
    expect(fieldType(type).csv.decode(cell)).toEqual({ ok: false, reason });
  });

  it('reads 1/0 and any case as booleans, numbers with spaces around them', () => {
    expect(fieldType('boolean').csv.decode(' TRUE ')).toEqual({ ok: true, value: true });
    expect(fieldType('boolean').csv.decode('0')).toEqual({ ok: true, value: false });
    expect(fieldType('number').csv.decode(' 1e3 ')).toEqual({ ok: true, value: 1000 });
  });

  it('a localised export writes the words of allowed values, and only of those', () => {
    const words = (value: string) => `«${value}»`;
    expect(fieldType('enum').csv.encode('low', words)).toBe('«low»');
    expect(fieldType('boolean').csv.encode(false, words)).toBe('«false»');
    expect(fieldType('array.enum').csv.encode(['a', 'b'], words)).toBe('«a», «b»');
    expect(fieldType('array.enum').csv.encode(null, words)).toBe('');
    expect(fieldType('enum').csv.encode('', words)).toBe('');
    expect(fieldType('string').csv.encode('low', words)).toBe('low');
  });

  it('every refusal reason is a locale key in every language', () => {
    for (const reason of Object.values(CSV_REASONS)) for (const [language, tree] of Object.entries(LOCALES)) expect(lookup(tree, reason), `${language}: ${reason}`).toEqual(expect.any(String));
  });
});

describe('prepare for the edit form', () => {
  it('dates become Dates, refs their ids, ref lists id lists; the rest is edited as it is', () => {
    expect(fieldType('date').prepare!('2026-11-26T10:00:00.000Z')).toEqual(new Date('2026-11-26T10:00:00.000Z'));
    expect(fieldType('date').prepare!('not a date')).toBeNull();
    expect(fieldType('date').prepare!(null)).toBeNull();
    expect(fieldType('ref').prepare!({ _id: 'r1', name: 'Ana' })).toBe('r1');
    expect(fieldType('ref').prepare!(undefined)).toBeUndefined();
    expect(fieldType('array.ref').prepare!([{ _id: 'a' }, { id: 7 }, null, 'c'])).toEqual(['a', '7', 'c']);
    expect(fieldType('array.ref').prepare!(undefined)).toEqual([]);
    for (const type of FIELD_TYPES.filter((t) => !['date', 'ref', 'array.ref'].includes(t))) expect(fieldType(type).prepare, type).toBeNull();
  });
});

