import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toEnum, wrapped } from './convert-value.ts';

export const arrayEnumType: FieldTypeDefinition = {
  name: 'array.enum',
  column: 'json',
  typescript: { record: (f, w) => `${w.enumType(f)}[]`, input: (f, w) => `${w.enumType(f)}[]` },
  graphql: { output: (f, w) => `[${w.enumType(f)}!]`, input: (f, w) => `[${w.enumType(f)}!]` },
  filter: { scalar: 'string', textual: false, enumValues: true },
  convertsFrom: { 'array.enum': eachItem(toEnum), 'array.string': eachItem(toEnum), enum: wrapped(toEnum), string: wrapped(toEnum) },
};
