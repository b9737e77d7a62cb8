import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toEnum } from './convert-value.ts';

export const enumType: FieldTypeDefinition = {
  name: 'enum',
  column: 'text',
  typescript: { record: (f, w) => w.enumType(f), input: (f, w) => w.enumType(f) },
  graphql: { output: (f, w) => w.enumType(f), input: (f, w) => w.enumType(f) },
  filter: { scalar: 'string', textual: false, enumValues: true },
  convertsFrom: { enum: toEnum, string: toEnum, longString: toEnum, number: toEnum, boolean: toEnum },
};
