import type { FieldTypeDefinition } from './field-type-definition.ts';
import { eachItem, toText, wrapped } from './convert-value.ts';

export const arrayRefType: FieldTypeDefinition = {
  name: 'array.ref',
  column: 'json',
  typescript: { record: (f, w) => `Array<${w.refType(f)}>`, input: () => 'string[]' },
  graphql: { output: (f, w) => `[${w.refType(f)}!]`, input: () => '[ID!]' },
  filter: { scalar: 'string', textual: false, enumValues: false },
  convertsFrom: { ref: wrapped(toText), 'array.string': eachItem(toText) },
};
