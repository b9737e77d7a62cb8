import type { FieldTypeDefinition } from './field-type-definition.ts';
import { stringSchema, plainRecord } from './json-schema-fragments.ts';
import { textCodec } from './csv-codecs.ts';
import { isTextValue } from './value-checks.ts';

export const passwordType: FieldTypeDefinition = {
  name: 'password',
  column: 'text',
  list: false,
  isValue: isTextValue,
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  jsonSchema: { input: (f) => stringSchema(f), record: plainRecord },
  csv: textCodec,
  cell: 'secret',
  form: { widget: 'password', field: null },
  prepare: null,
  filter: { scalar: 'string', textual: true, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: {},
};
