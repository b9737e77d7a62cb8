import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toEnum, wrapped } from './convert-value.ts';

export const arrayEnumType: FieldTypeDefinition = {
  name: 'array.enum',
  column: 'json',
  convertsFrom: { 'array.enum': eachItem(toEnum), 'array.string': eachItem(toEnum), enum: wrapped(toEnum), string: wrapped(toEnum) },
};
