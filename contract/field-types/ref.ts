import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';
import { refIdSchema } from './json-schema-fragments.ts';
import { refCodec } from './csv-codecs.ts';
import { refForForm } from './prepare-values.ts';
import { isTextValue } from './value-checks.ts';

export const refType: FieldTypeDefinition = {
  name: 'ref',
  column: 'text',
  list: false,
  isValue: isTextValue,
  typescript: { record: (f, w) => w.refType(f), input: () => 'string' },
  graphql: { output: (f, w) => w.refType(f), input: () => 'ID' },
  jsonSchema: { input: () => refIdSchema(), record: (f, w) => ({ anyOf: [w.populatedRef(f), { type: 'null' }] }) },
  csv: refCodec,
  cell: 'ref',
  form: { widget: 'ref', field: null },
  prepare: refForForm,
  filter: { scalar: 'string', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { string: toText },
};
