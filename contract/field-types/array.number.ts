import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toNumber, wrapped } from './convert-value.ts';

export const arrayNumberType: FieldTypeDefinition = {
  name: 'array.number',
  column: 'json',
  typescript: { record: () => 'number[]', input: () => 'number[]' },
  graphql: { output: (f) => (f.validation.integer ? '[Int!]' : '[Float!]'), input: (f) => (f.validation.integer ? '[Int!]' : '[Float!]') },
  filter: { scalar: 'number', textual: false, enumValues: false },
  convertsFrom: { 'array.number': eachItem(toNumber), 'array.string': eachItem(toNumber), 'array.enum': eachItem(toNumber), number: wrapped(toNumber) },
};
