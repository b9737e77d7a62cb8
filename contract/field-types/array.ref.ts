import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';
import { listSchema, refIdSchema } from './json-schema-fragments.ts';
import { refListCodec } from './csv-codecs.ts';
import { refListForForm } from './prepare-values.ts';
import { isTextList } from './value-checks.ts';

export const arrayRefType: FieldTypeDefinition = {
  name: 'array.ref',
  column: 'json',
  list: true,
  isValue: isTextList,
  typescript: { record: (f, w) => `Array<${w.refType(f)}>`, input: () => 'string[]' },
  graphql: { output: (f, w) => `[${w.refType(f)}!]`, input: () => '[ID!]' },
  jsonSchema: { input: (f) => listSchema(f, refIdSchema()), record: (f, w) => ({ type: 'array', items: w.populatedRef(f) }) },
  csv: refListCodec,
  cell: 'refList',
  form: { widget: 'refMulti', field: null },
  prepare: refListForForm,
  filter: { scalar: 'string', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { ref: wrapped(toText), 'array.string': eachItem(toText) },
};
