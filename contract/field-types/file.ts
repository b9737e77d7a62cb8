import type { FieldTypeDefinition } from './field-type-definition.ts';
import { toText } from './convert-value.ts';
import { plainRecord } from './json-schema-fragments.ts';
import { textCodec } from './csv-codecs.ts';
import { isTextValue } from './value-checks.ts';

export const fileType: FieldTypeDefinition = {
  name: 'file',
  column: 'text',
  list: false,
  isValue: isTextValue,
  typescript: { record: () => 'string', input: () => 'string' },
  graphql: { output: () => 'String', input: () => 'String' },
  jsonSchema: { input: () => ({ type: 'string', maxLength: 2048 }), record: plainRecord },
  csv: textCodec,
  cell: 'fileName',
  form: { widget: 'file', field: null },
  prepare: null,
  filter: null,
  convertsFrom: { string: toText, longString: toText },
};
