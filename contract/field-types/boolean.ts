import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toBoolean } from './convert-value.ts';

export const booleanType: FieldTypeDefinition = {
  name: 'boolean',
  column: 'boolean',
  typescript: { record: () => 'boolean', input: () => 'boolean' },
  graphql: { output: () => 'Boolean', input: () => 'Boolean' },
  filter: { scalar: 'boolean', textual: false, enumValues: false },
  convertsFrom: { number: toBoolean, string: toBoolean, longString: toBoolean, enum: toBoolean },
};
