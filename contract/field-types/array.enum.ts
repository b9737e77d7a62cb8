import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toEnum, wrapped } from './convert-value.ts';
import { listSchema, plainRecord } from './json-schema-fragments.ts';
import { enumListCodec } from './csv-codecs.ts';
import { isEnumList } from './value-checks.ts';

export const arrayEnumType: FieldTypeDefinition = {
  name: 'array.enum',
  column: 'json',
  list: true,
  isValue: isEnumList,
  typescript: { record: (f, w) => `${w.enumType(f)}[]`, input: (f, w) => `${w.enumType(f)}[]` },
  graphql: { output: (f, w) => `[${w.enumType(f)}!]`, input: (f, w) => `[${w.enumType(f)}!]` },
  jsonSchema: { input: (f, w) => listSchema(f, w.item(f, 'enum')), record: plainRecord },
  csv: enumListCodec,
  cell: 'chips',
  form: { widget: 'select', field: null },
  prepare: null,
  filter: { scalar: 'string', textual: false, enumValues: true, defaultOperator: 'eq' },
  convertsFrom: { 'array.enum': eachItem(toEnum), 'array.string': eachItem(toEnum), enum: wrapped(toEnum), string: wrapped(toEnum) },
};
