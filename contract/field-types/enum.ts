import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toEnum } from './convert-value.ts';
import { plainRecord } from './json-schema-fragments.ts';
import { enumCodec } from './csv-codecs.ts';
import { isEnumValue } from './value-checks.ts';

export const enumType: FieldTypeDefinition = {
  name: 'enum',
  column: 'text',
  list: false,
  isValue: isEnumValue,
  typescript: { record: (f, w) => w.enumType(f), input: (f, w) => w.enumType(f) },
  graphql: { output: (f, w) => w.enumType(f), input: (f, w) => w.enumType(f) },
  jsonSchema: { input: (f) => ({ type: 'string', enum: f.values ?? [] }), record: plainRecord },
  csv: enumCodec,
  cell: 'text',
  form: { widget: 'select', field: null },
  prepare: null,
  filter: { scalar: 'string', textual: false, enumValues: true, defaultOperator: 'eq' },
  convertsFrom: { enum: toEnum, string: toEnum, longString: toEnum, number: toEnum, boolean: toEnum },
};
