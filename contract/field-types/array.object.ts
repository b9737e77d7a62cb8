import type { FieldTypeDefinition } from './field-type-definition.ts';
import { unchanged, wrapped } from './convert-value.ts';

export const arrayObjectType: FieldTypeDefinition = {
  name: 'array.object',
  column: 'json',
  convertsFrom: { object: wrapped(unchanged) },
};
