import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';

export const arrayStringType: FieldTypeDefinition = {
  name: 'array.string',
  column: 'json',
  convertsFrom: { string: wrapped(toText), longString: wrapped(toText), enum: wrapped(toText), 'array.enum': eachItem(toText), 'array.number': eachItem(toText), 'array.ref': eachItem(toText) },
};
