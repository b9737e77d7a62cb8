import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toNumber } from './convert-value.ts';

export const numberType: FieldTypeDefinition = {
  name: 'number',
  column: 'real',
  typescript: { record: () => 'number', input: () => 'number' },
  graphql: { output: (f) => (f.validation.integer ? 'Int' : 'Float'), input: (f) => (f.validation.integer ? 'Int' : 'Float') },
  filter: { scalar: 'number', textual: false, enumValues: false },
  convertsFrom: { number: toNumber, string: toNumber, longString: toNumber, enum: toNumber, boolean: toNumber },
};
