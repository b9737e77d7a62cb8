import type { FieldTypeDefinition } from './field-type-definition.ts';

export const passwordType: FieldTypeDefinition = {
  name: 'password',
  column: 'text',
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  filter: { scalar: 'string', textual: true, enumValues: false },
  convertsFrom: {},
};
