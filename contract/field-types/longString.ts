import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const longStringType: FieldTypeDefinition = {
  name: 'longString',
  column: 'text',
  convertsFrom: { string: toText, enum: toText, number: toText, boolean: toText, date: toText, file: toText, ref: toText },
};
