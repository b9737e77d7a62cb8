import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toDate } from './convert-value.ts';

export const dateType: FieldTypeDefinition = {
  name: 'date',
  column: 'timestamp',
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  filter: { scalar: 'timestamp', textual: false, enumValues: false },
  convertsFrom: { string: toDate, longString: toDate },
};
