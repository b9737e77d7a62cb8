import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const longStringType: FieldTypeDefinition = {
  name: 'longString',
  column: 'text',
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  filter: { scalar: 'string', textual: true, enumValues: false },
  convertsFrom: { string: toText, enum: toText, number: toText, boolean: toText, date: toText, file: toText, ref: toText },
};
