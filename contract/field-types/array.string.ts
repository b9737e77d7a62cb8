import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';
import { listSchema, plainRecord } from './json-schema-fragments.ts';
import { jsonCodec } from './csv-codecs.ts';
import { isTextList } from './value-checks.ts';

export const arrayStringType: FieldTypeDefinition = {
  name: 'array.string',
  column: 'json',
  list: true,
  isValue: isTextList,
  typescript: { record: () => 'string[]', input: () => 'string[]' },
  graphql: { output: () => '[String!]', input: () => '[String!]' },
  jsonSchema: { input: (f, w) => listSchema(f, w.item(f, 'string')), record: plainRecord },
  csv: jsonCodec,
  cell: 'chips',
  form: { widget: null, field: null },
  prepare: null,
  filter: { scalar: 'string', textual: true, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { string: wrapped(toText), longString: wrapped(toText), enum: wrapped(toText), 'array.enum': eachItem(toText), 'array.number': eachItem(toText), 'array.ref': eachItem(toText) },
};
