import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toDate } from './convert-value.ts';

export const dateType: FieldTypeDefinition = {
  name: 'date',
  column: 'timestamp',
  convertsFrom: { string: toDate, longString: toDate },
};
