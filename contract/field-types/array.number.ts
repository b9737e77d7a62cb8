import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toNumber, wrapped } from './convert-value.ts';
import { listSchema, plainRecord } from './json-schema-fragments.ts';
import { jsonCodec } from './csv-codecs.ts';
import { isNumberList } from './value-checks.ts';

export const arrayNumberType: FieldTypeDefinition = {
  name: 'array.number',
  column: 'json',
  list: true,
  isValue: isNumberList,
  typescript: { record: () => 'number[]', input: () => 'number[]' },
  graphql: { output: (f) => (f.validation.integer ? '[Int!]' : '[Float!]'), input: (f) => (f.validation.integer ? '[Int!]' : '[Float!]') },
  jsonSchema: { input: (f, w) => listSchema(f, w.item(f, 'number')), record: plainRecord },
  csv: jsonCodec,
  cell: 'chips',
  form: { widget: null, field: null },
  prepare: null,
  filter: { scalar: 'number', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { 'array.number': eachItem(toNumber), 'array.string': eachItem(toNumber), 'array.enum': eachItem(toNumber), number: wrapped(toNumber) },
};
