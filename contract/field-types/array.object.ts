import type { FieldTypeDefinition } from './field-type-definition.ts';
import { unchanged, wrapped } from './convert-value.ts';

export const arrayObjectType: FieldTypeDefinition = {
  name: 'array.object',
  column: 'json',
  typescript: { record: (f, w) => `Array<${w.objectType(f)}>`, input: (f, w) => `Array<${w.objectType(f)}>` },
  graphql: { output: (f, w) => `[${w.objectType(f)}!]`, input: (f, w) => `[${w.objectType(f)}!]` },
  filter: null,
  convertsFrom: { object: wrapped(unchanged) },
};
