import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';

export const arrayRefType: FieldTypeDefinition = {
  name: 'array.ref',
  column: 'json',
  convertsFrom: { ref: wrapped(toText), 'array.string': eachItem(toText) },
};
