import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';

export const arrayStringType: FieldTypeDefinition = {
  name: 'array.string',
  column: 'json',
  typescript: { record: () => 'string[]', input: () => 'string[]' },
  graphql: { output: () => '[String!]', input: () => '[String!]' },
  filter: { scalar: 'string', textual: true, enumValues: false },
  convertsFrom: { string: wrapped(toText), longString: wrapped(toText), enum: wrapped(toText), 'array.enum': eachItem(toText), 'array.number': eachItem(toText), 'array.ref': eachItem(toText) },
};
