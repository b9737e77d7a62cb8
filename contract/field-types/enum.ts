import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toEnum } from './convert-value.ts';

export const enumType: FieldTypeDefinition = {
  name: 'enum',
  column: 'text',
  convertsFrom: { enum: toEnum, string: toEnum, longString: toEnum, number: toEnum, boolean: toEnum },
};
