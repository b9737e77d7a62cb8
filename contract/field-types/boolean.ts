import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toBoolean } from './convert-value.ts';

export const booleanType: FieldTypeDefinition = {
  name: 'boolean',
  column: 'boolean',
  convertsFrom: { number: toBoolean, string: toBoolean, longString: toBoolean, enum: toBoolean },
};
