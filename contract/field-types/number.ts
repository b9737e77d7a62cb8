import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toNumber } from './convert-value.ts';

export const numberType: FieldTypeDefinition = {
  name: 'number',
  column: 'real',
  convertsFrom: { number: toNumber, string: toNumber, longString: toNumber, enum: toNumber, boolean: toNumber },
};
