import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toDate } from './convert-value.ts';
import { plainRecord } from './json-schema-fragments.ts';
import { textCodec } from './csv-codecs.ts';
import { dateForForm } from './prepare-values.ts';
import { isTextValue } from './value-checks.ts';

export const dateType: FieldTypeDefinition = {
  name: 'date',
  column: 'timestamp',
  list: false,
  isValue: isTextValue,
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  jsonSchema: { input: () => ({ type: 'string', format: 'date-time' }), record: plainRecord },
  csv: textCodec,
  cell: 'date',
  form: { widget: 'date', field: null },
  prepare: dateForForm,
  filter: { scalar: 'timestamp', textual: false, enumValues: false, defaultOperator: 'eq' },
  convertsFrom: { string: toDate, longString: toDate },
};
