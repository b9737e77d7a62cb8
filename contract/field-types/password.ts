import type { FieldTypeDefinition } from './field-type-definition.ts';

export const passwordType: FieldTypeDefinition = {
  name: 'password',
  column: 'text',
  convertsFrom: {},
};
