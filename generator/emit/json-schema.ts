import type { EntityModel, FieldModel, RuleName } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import type { InputSchemaWriter, JsonSchema, RecordSchemaWriter } from '../../contract/field-types/json-schema-fragments.ts';

// JSON Schema (draft-07, the dialect both ajv's default and RJSF speak) built from the model.
// One builder serves the server's request validation and the client's form, so the two cannot drift.

export type { JsonSchema };

export type InputMode = 'create' | 'update' | 'form';

/** Message keys of the rules a field actually has, for mapping validator errors to keys. */
function messagesOf(field: FieldModel): Record<string, string> {
  const v = field.validation;
  const present: Record<RuleName, boolean> = {
    required: v.required || v.requiredOnCreate || field.visibleWhen !== null,
    unique: v.unique,
    pattern: v.pattern !== null,
    minLength: v.minLength !== null,
    maxLength: v.maxLength !== null,
    min: v.min !== null,
    max: v.max !== null,
    integer: v.integer,
    format: v.format !== null,
    enum: field.values !== null,
    minItems: v.minItems !== null,
    maxItems: v.maxItems !== null,
  };
  const out: Record<string, string> = {};
  for (const rule of Object.keys(present) as RuleName[]) if (present[rule]) out[rule] = v.messages[rule];
  return out;
}

/** The input schema of a value: its type's fragment (contract/field-types), any JSON for a json field. */
function valueSchema(field: FieldModel, mode: InputMode): JsonSchema {
  if (field.json) return {};
  return fieldType(field.type).jsonSchema.input(field, inputWriter(mode));
}

const INPUT_WRITERS = new Map<InputMode, InputSchemaWriter>();

function inputWriter(mode: InputMode): InputSchemaWriter {
  let writer = INPUT_WRITERS.get(mode);
  if (!writer) {
    writer = {
      object: (fields) => objectSchema(fields, mode),
      item: (field, type) => valueSchema({ ...field, type }, mode),
    };
    INPUT_WRITERS.set(mode, writer);
  }
  return writer;
}

function isRequired(field: FieldModel, mode: InputMode): boolean {
  if (field.visibleWhen) return false;
  return field.validation.required || (mode !== 'update' && field.validation.requiredOnCreate);
}

function propertySchema(field: FieldModel, mode: InputMode): JsonSchema {
  const schema = valueSchema(field, mode);
  if (!field.json && !isRequired(field, mode) && typeof schema.type === 'string' && !fieldType(field.type).list) {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
  }
  schema.title = field.label;
  if (field.hint) schema.description = field.hint;
  if (field.default !== null && field.default !== undefined && mode !== 'update') schema.default = field.default;
  if (field.readonly) schema.readOnly = true;
  if (field.secret) schema.writeOnly = true;
  const messages = messagesOf(field);
  if (Object.keys(messages).length) schema['x-messages'] = messages;
  return schema;
}

function conditionSchema(field: FieldModel): JsonSchema {
  const condition = field.visibleWhen!;
  const match = condition.in ? { enum: condition.in } : { not: { enum: condition.notIn } };
  return {
    if: { properties: { [condition.field]: match }, required: [condition.field] },
    then: { required: [field.name] },
  };
}

function objectSchema(fields: readonly FieldModel[], mode: InputMode): JsonSchema {
  // Nested readonly fields (a chunk's hash) travel with their parent; only the UI keeps them read-only.
  const writable = fields;
  const properties: Record<string, JsonSchema> = {};
  for (const field of writable) properties[field.name] = propertySchema(field, mode);
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  const required = writable.filter((field) => isRequired(field, mode)).map((field) => field.name);
  if (required.length) schema.required = required;
  const conditional = writable.filter((field) => conditionallyRequired(field, mode));
  if (conditional.length) schema.allOf = conditional.map(conditionSchema);
  return schema;
}

/** Required when its condition holds; the server checks updates on the merged record, so they too. */
function conditionallyRequired(field: FieldModel, mode: InputMode): boolean {
  if (!field.visibleWhen) return false;
  return field.validation.required || (mode !== 'update' && field.validation.requiredOnCreate);
}

/**
 * The body a client sends. 'create' and 'update' are what the server accepts (readonly fields are
 * never accepted; update requires nothing, the server re-checks the merged record); 'form' also
 * lists readonly fields, marked readOnly, so the form can show them.
 */
export function buildInputSchema(model: EntityModel, mode: InputMode): JsonSchema {
  const fields = model.fields.filter((field) => mode === 'form' || !field.readonly);
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) properties[field.name] = propertySchema(field, mode);
  const schema: JsonSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${model.name}.${mode}`,
    title: model.label,
    type: 'object',
    properties,
    additionalProperties: false,
  };
  const required = fields.filter((field) => isRequired(field, mode)).map((field) => field.name);
  if (required.length) schema.required = required;
  const conditional = fields.filter((field) => conditionallyRequired(field, mode));
  if (conditional.length) schema.allOf = conditional.map(conditionSchema);
  return schema;
}

function recordValueSchema(field: FieldModel, models: Record<string, EntityModel>): JsonSchema {
  if (field.json) return {};
  return fieldType(field.type).jsonSchema.record(field, recordWriter(models));
}

function recordWriter(models: Record<string, EntityModel>): RecordSchemaWriter {
  return {
    populatedRef(field) {
      const ref = field.ref!;
      const target = models[ref.entity];
      const properties: Record<string, JsonSchema> = { _id: { type: 'string' } };
      for (const name of [ref.display, ...ref.populate]) {
        const targetField = target?.fields.find((f) => f.name === name);
        properties[name] = targetField ? recordValueSchema(targetField, models) : { type: 'string' };
      }
      return { type: 'object', properties, required: ['_id'] };
    },
    object: (fields) => recordObjectSchema(fields, models),
    plain(field) {
      const schema = valueSchema(field, 'form');
      delete schema.minLength; delete schema.maxLength; delete schema.pattern; delete schema.format;
      delete schema.minItems; delete schema.maxItems; delete schema.minimum; delete schema.maximum;
      if (typeof schema.type === 'string' && !fieldType(field.type).list) schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
      return schema;
    },
  };
}

function recordObjectSchema(fields: readonly FieldModel[], models: Record<string, EntityModel>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields.filter((f) => !f.secret)) properties[field.name] = recordValueSchema(field, models);
  return { type: 'object', properties };
}

/** A record as the API returns it: system fields, refs populated with their display fields, no secrets. */
export function buildRecordSchema(model: EntityModel, models: Record<string, EntityModel>): JsonSchema {
  const properties: Record<string, JsonSchema> = { _id: { type: 'string' } };
  for (const field of model.fields.filter((f) => !f.secret)) properties[field.name] = recordValueSchema(field, models);
  if (model.storage.tenantColumn && !properties.tenant) properties.tenant = { type: ['string', 'null'] };
  properties.createdAt = { type: 'string', format: 'date-time' };
  properties.updatedAt = { type: 'string', format: 'date-time' };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${model.name}.record`,
    title: model.label,
    type: 'object',
    properties,
    required: ['_id', 'createdAt', 'updatedAt'],
  };
}
