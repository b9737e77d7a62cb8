import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';
import { stringSchema, plainRecord } from './json-schema-fragments.ts';
import { textCodec } from './csv-codecs.ts';
import { isTextValue } from './value-checks.ts';

export const longStringType: FieldTypeDefinition = {
  name: 'longString',
  column: 'text',
  list: false,
  isValue: isTextValue,
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  jsonSchema: { input: (f) => stringSchema(f), record: plainRecord },
  csv: textCodec,
  cell: 'longText',
  form: { widget: 'textarea', field: null },
  prepare: null,
  filter: { scalar: 'string', textual: true, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { string: toText, enum: toText, number: toText, boolean: toText, date: toText, file: toText, ref: toText },
};
