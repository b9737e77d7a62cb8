import type { FieldTypeDefinition } from './field-type-definition.ts';

export const fullFileType: FieldTypeDefinition = {
  name: 'fullFile',
  column: 'json',
  typescript: { record: () => 'UploadedFile', input: () => 'UploadedFile' },
  graphql: { output: () => 'UploadedFile', input: () => 'UploadedFileInput' },
  filter: null,
  convertsFrom: {},
};
