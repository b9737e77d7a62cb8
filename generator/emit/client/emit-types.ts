import type { EntityModel, EntityModelMap, FieldModel } from '../../../contract/model/entity-model.ts';
import { fieldType } from '../../../contract/field-types/field-types.ts';
import { GENERATED_HEADER } from '../emitted-files.ts';

// TypeScript types per entity: the record as the API returns it and the input a client sends.

const quote = (value: string) => JSON.stringify(value);

function union(values: string[]): string {
  return values.map(quote).join(' | ');
}

function enumType(field: FieldModel): string {
  return field.enumName ?? `(${union(field.values ?? [])})`;
}

function refRecordType(field: FieldModel, models: EntityModelMap): string {
  const ref = field.ref!;
  const target = models[ref.entity];
  const parts = ['_id: string'];
  for (const name of [ref.display, ...ref.populate]) {
    if (name === '_id') continue;
    const targetField = target.fields.find((f) => f.name === name);
    const type = targetField ? recordType(targetField, models, 1) : 'string';
    parts.push(`${name}?: ${type} | null`);
  }
  return `{ ${parts.join('; ')} }`;
}

function objectType(fields: FieldModel[], render: (f: FieldModel) => string, optional: (f: FieldModel) => boolean, indent: number): string {
  const pad = '  '.repeat(indent + 1);
  const lines = fields.map((f) => `${pad}${f.name}${optional(f) ? '?' : ''}: ${render(f)};`);
  return `{\n${lines.join('\n')}\n${'  '.repeat(indent)}}`;
}

function recordType(field: FieldModel, models: EntityModelMap, indent: number): string {
  if (field.json) return 'unknown';
  const nested = (fields: FieldModel[]) =>
    objectType(fields.filter((f) => !f.secret), (f) => recordType(f, models, indent + 1), (f) => !f.validation.required, indent);
  return fieldType(field.type).typescript.record(field, { enumType, refType: (f) => refRecordType(f, models), objectType: (f) => nested(f.objectFields ?? []) });
}

function inputType(field: FieldModel, indent: number): string {
  if (field.json) return 'unknown';
  const nested = (fields: FieldModel[]) =>
    objectType(fields, (f) => inputType(f, indent + 1), (f) => !f.validation.required, indent);
  return fieldType(field.type).typescript.input(field, { enumType, refType: () => 'string', objectType: (f) => nested(f.objectFields ?? []) });
}

function recordInterface(model: EntityModel, models: EntityModelMap): string {
  const lines = ['  _id: string;'];
  for (const field of model.fields.filter((f) => !f.secret)) {
    const required = field.validation.required && !field.visibleWhen;
    const type = recordType(field, models, 1);
    lines.push(`  ${field.name}${required ? '' : '?'}: ${type}${required || fieldType(field.type).list ? '' : ' | null'};`);
  }
  if (model.storage.tenantColumn && !model.fields.some((f) => f.name === 'tenant')) lines.push('  tenant?: string | null;');
  lines.push('  createdAt: string;', '  updatedAt: string;');
  return `/** ${model.typeName} as the API returns it (${model.api.basePath}). */\nexport interface ${model.typeName} {\n${lines.join('\n')}\n}\n`;
}

function inputInterface(model: EntityModel): string {
  const lines: string[] = [];
  for (const field of model.fields.filter((f) => !f.readonly)) {
    const required = (field.validation.required || field.validation.requiredOnCreate) && !field.visibleWhen;
    lines.push(`  ${field.name}${required ? '' : '?'}: ${inputType(field, 1)}${required || fieldType(field.type).list ? '' : ' | null'};`);
  }
  return `/** What a client sends to create or update ${model.typeName} records. */\nexport interface ${model.inputTypeName} {\n${lines.join('\n')}\n}\n`;
}

export function emitTypes(models: EntityModelMap, enums: Record<string, string[]>): string {
  const parts = [GENERATED_HEADER];
  parts.push(`/** A file stored by the upload endpoint. */
export interface UploadedFile {
  filename?: string;
  filepath: string;
  size?: number;
  mimetype?: string;
  url?: string;
}
`);
  for (const [name, values] of Object.entries(enums).sort(([a], [b]) => a.localeCompare(b))) {
    parts.push(`export const ${name}Values = ${JSON.stringify(values)} as const;\nexport type ${name} = (typeof ${name}Values)[number];\n`);
  }
  for (const model of Object.values(models)) {
    parts.push(recordInterface(model, models));
    parts.push(inputInterface(model));
  }
  parts.push(`/** Record and input type of every entity, by entity name. */
export interface EntityTypes {
${Object.values(models).map((m) => `  ${m.name}: { record: ${m.typeName}; input: ${m.inputTypeName} };`).join('\n')}
}

export type EntityName = keyof EntityTypes;
`);
  return parts.join('\n');
}
