import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';

export const fileType: FieldTypeDefinition = {
  name: 'file',
  column: 'text',
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  filter: null,
  convertsFrom: { string: toText, longString: toText },
};
