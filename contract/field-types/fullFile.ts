import type { FieldTypeDefinition } from './field-type-definition.ts';

export const fullFileType: FieldTypeDefinition = {
  name: 'fullFile',
  column: 'json',
  convertsFrom: {},
};
