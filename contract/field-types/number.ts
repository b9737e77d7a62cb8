import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toNumber } from './convert-value.ts';
import { numberSchema, plainRecord } from './json-schema-fragments.ts';
import { numberCodec } from './csv-codecs.ts';
import { isNumberValue } from './value-checks.ts';

export const numberType: FieldTypeDefinition = {
  name: 'number',
  column: 'real',
  list: false,
  isValue: isNumberValue,
  typescript: { record: () => 'number', input: () => 'number' },
  graphql: { output: (f) => (f.validation.integer ? 'Int' : 'Float'), input: (f) => (f.validation.integer ? 'Int' : 'Float') },
  jsonSchema: { input: (f) => numberSchema(f), record: plainRecord },
  csv: numberCodec,
  cell: 'text',
  form: { widget: null, field: null },
  prepare: null,
  filter: { scalar: 'number', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { number: toNumber, string: toNumber, longString: toNumber, enum: toNumber, boolean: toNumber },
};
