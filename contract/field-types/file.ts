import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const fileType: FieldTypeDefinition = {
  name: 'file',
  column: 'text',
  convertsFrom: { string: toText, longString: toText },
};
