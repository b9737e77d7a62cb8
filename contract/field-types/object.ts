import type { FieldTypeDefinition } from './field-type-definition.ts';

export const objectType: FieldTypeDefinition = {
  name: 'object',
  column: 'json',
  convertsFrom: {},
};
