import type { FieldTypeDefinition } from './field-type-definition.ts';

export const objectType: FieldTypeDefinition = {
  name: 'object',
  column: 'json',
  typescript: { record: (f, w) => w.objectType(f), input: (f, w) => w.objectType(f) },
  graphql: { output: (f, w) => w.objectType(f), input: (f, w) => w.objectType(f) },
  filter: null,
  convertsFrom: {},
};
