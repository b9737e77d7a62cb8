import type { FieldTypeDefinition } from './field-type-definition.ts';
import { jsonCodec } from './csv-codecs.ts';
import { isObjectValue } from './value-checks.ts';

export const objectType: FieldTypeDefinition = {
  name: 'object',
  column: 'json',
  list: false,
  isValue: isObjectValue,
  typescript: { record: (f, w) => w.objectType(f), input: (f, w) => w.objectType(f) },
  graphql: { output: (f, w) => w.objectType(f), input: (f, w) => w.objectType(f) },
  jsonSchema: { input: (f, w) => w.object(f.objectFields ?? []), record: (f, w) => w.object(f.objectFields ?? []) },
  csv: jsonCodec,
  cell: 'count',
  form: { widget: null, field: null },
  prepare: null,
  filter: null,
  convertsFrom: {},
};
