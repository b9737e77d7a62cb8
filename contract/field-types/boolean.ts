import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toBoolean } from './convert-value.ts';
import { plainRecord } from './json-schema-fragments.ts';
import { booleanCodec } from './csv-codecs.ts';
import { isBooleanValue } from './value-checks.ts';

export const booleanType: FieldTypeDefinition = {
  name: 'boolean',
  column: 'boolean',
  list: false,
  isValue: isBooleanValue,
  typescript: { record: () => 'boolean', input: () => 'boolean' },
  graphql: { output: () => 'Boolean', input: () => 'Boolean' },
  jsonSchema: { input: () => ({ type: 'boolean' }), record: plainRecord },
  csv: booleanCodec,
  cell: 'boolean',
  form: { widget: 'checkbox', field: null },
  prepare: null,
  filter: { scalar: 'boolean', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { number: toBoolean, string: toBoolean, longString: toBoolean, enum: toBoolean },
};
