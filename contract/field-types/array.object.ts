import type { FieldTypeDefinition } from './field-type-definition.ts';
import { unchanged, wrapped } from './convert-value.ts';
import { listSchema } from './json-schema-fragments.ts';
import { jsonCodec } from './csv-codecs.ts';
import { isObjectList } from './value-checks.ts';

export const arrayObjectType: FieldTypeDefinition = {
  name: 'array.object',
  column: 'json',
  list: true,
  isValue: isObjectList,
  typescript: { record: (f, w) => `Array<${w.objectType(f)}>`, input: (f, w) => `Array<${w.objectType(f)}>` },
  graphql: { output: (f, w) => `[${w.objectType(f)}!]`, input: (f, w) => `[${w.objectType(f)}!]` },
  jsonSchema: { input: (f, w) => listSchema(f, w.object(f.objectFields ?? [])), record: (f, w) => ({ type: 'array', items: w.object(f.objectFields ?? []) }) },
  csv: jsonCodec,
  cell: 'count',
  form: { widget: null, field: null },
  prepare: null,
  filter: null,
  convertsFrom: { object: wrapped(unchanged) },
};
