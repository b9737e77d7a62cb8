import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const refType: FieldTypeDefinition = {
  name: 'ref',
  column: 'text',
  typescript: { record: (f, w) => w.refType(f), input: () => 'string' },
  graphql: { output: (f, w) => w.refType(f), input: () => 'ID' },
  filter: { scalar: 'string', textual: false, enumValues: false },
  convertsFrom: { string: toText },
};
