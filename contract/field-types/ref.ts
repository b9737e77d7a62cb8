import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const refType: FieldTypeDefinition = {
  name: 'ref',
  column: 'text',
  convertsFrom: { string: toText },
};
