import type { FieldTypeDefinition } from './field-type-definition.ts';
import { plainRecord, UPLOADED_FILE_SCHEMA } from './json-schema-fragments.ts';
import { jsonCodec } from './csv-codecs.ts';
import { isObjectValue } from './value-checks.ts';

export const fullFileType: FieldTypeDefinition = {
  name: 'fullFile',
  column: 'json',
  list: false,
  isValue: isObjectValue,
  typescript: { record: () => 'UploadedFile', input: () => 'UploadedFile' },
  graphql: { output: () => 'UploadedFile', input: () => 'UploadedFileInput' },
  jsonSchema: { input: () => structuredClone(UPLOADED_FILE_SCHEMA), record: plainRecord },
  csv: jsonCodec,
  cell: 'uploadedFile',
  form: { widget: null, field: 'fullFile' },
  prepare: null,
  filter: null,
  convertsFrom: {},
};
