import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toNumber, wrapped } from './convert-value.ts';

export const arrayNumberType: FieldTypeDefinition = {
  name: 'array.number',
  column: 'json',
  convertsFrom: { 'array.number': eachItem(toNumber), 'array.string': eachItem(toNumber), 'array.enum': eachItem(toNumber), number: wrapped(toNumber) },
};
