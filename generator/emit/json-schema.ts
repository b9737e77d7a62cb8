import type { EntityModel, FieldModel, RuleName } from '../../contract/model/entity-model.ts';

// JSON Schema (draft-07, the dialect both ajv's default and RJSF speak) built from the model.
// One builder serves the server's request validation and the client's form, so the two cannot drift.

export type JsonSchema = Record<string, unknown>;

export type InputMode = 'create' | 'update' | 'form';

const UPLOADED_FILE: JsonSchema = {
  type: 'object',
  properties: {
    filename: { type: 'string', maxLength: 1024 },
    filepath: { type: 'string', maxLength: 2048 },
    size: { type: 'integer', minimum: 0 },
    mimetype: { type: 'string', maxLength: 255 },
    url: { type: 'string', maxLength: 2048 },
  },
  required: ['filepath'],
  additionalProperties: false,
};

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

function stringRules(field: FieldModel): JsonSchema {
  const v = field.validation;
  const out: JsonSchema = { type: 'string' };
  if (v.minLength !== null) out.minLength = v.minLength;
  if (v.maxLength !== null) out.maxLength = v.maxLength;
  if (v.pattern !== null) out.pattern = v.pattern;
  if (v.format !== null) out.format = v.format;
  return out;
}

function valueSchema(field: FieldModel, mode: InputMode): JsonSchema {
  if (field.json) return {};
  const v = field.validation;
  switch (field.type) {
    case 'string': case 'longString': case 'password':
      return stringRules(field);
    case 'file':
      return { type: 'string', maxLength: 2048 };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: field.values ?? [] };
    case 'number': {
      const out: JsonSchema = { type: v.integer ? 'integer' : 'number' };
      if (v.min !== null) out.minimum = v.min;
      if (v.max !== null) out.maximum = v.max;
      return out;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'ref':
      return { type: 'string', minLength: 1, maxLength: 64 };
    case 'fullFile':
      return structuredClone(UPLOADED_FILE);
    case 'object':
      return objectSchema(field.objectFields ?? [], mode);
    case 'array.string':
    case 'array.enum':
    case 'array.number':
    case 'array.ref':
    case 'array.object': {
      const item: FieldModel = { ...field, type: itemType(field.type) };
      const items = field.type === 'array.object' ? objectSchema(field.objectFields ?? [], mode) : valueSchema(item, mode);
      if (field.type === 'array.number') {
        if (v.min !== null) items.minimum = v.min;
        if (v.max !== null) items.maximum = v.max;
      }
      const out: JsonSchema = { type: 'array', items };
      if (v.minItems !== null) out.minItems = v.minItems;
      if (v.maxItems !== null) out.maxItems = v.maxItems;
      return out;
    }
  }
}

function itemType(type: FieldModel['type']): FieldModel['type'] {
  return ({ 'array.string': 'string', 'array.enum': 'enum', 'array.number': 'number', 'array.ref': 'ref', 'array.object': 'object' } as const)[
    type as 'array.string'
  ] ?? type;
}

function isRequired(field: FieldModel, mode: InputMode): boolean {
  if (field.visibleWhen) return false;
  return field.validation.required || (mode !== 'update' && field.validation.requiredOnCreate);
}

function propertySchema(field: FieldModel, mode: InputMode): JsonSchema {
  const schema = valueSchema(field, mode);
  if (!field.json && !isRequired(field, mode) && typeof schema.type === 'string' && !field.type.startsWith('array.')) {
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

function objectSchema(fields: FieldModel[], mode: InputMode): JsonSchema {
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
  const refSchema = (): JsonSchema => {
    const ref = field.ref!;
    const target = models[ref.entity];
    const properties: Record<string, JsonSchema> = { _id: { type: 'string' } };
    for (const name of [ref.display, ...ref.populate]) {
      const targetField = target?.fields.find((f) => f.name === name);
      properties[name] = targetField ? recordValueSchema(targetField, models) : { type: 'string' };
    }
    return { type: 'object', properties, required: ['_id'] };
  };
  switch (field.type) {
    case 'ref': return { anyOf: [refSchema(), { type: 'null' }] };
    case 'array.ref': return { type: 'array', items: refSchema() };
    case 'object': return recordObjectSchema(field.objectFields ?? [], models);
    case 'array.object': return { type: 'array', items: recordObjectSchema(field.objectFields ?? [], models) };
    default: {
      const schema = valueSchema(field, 'form');
      delete schema.minLength; delete schema.maxLength; delete schema.pattern; delete schema.format;
      delete schema.minItems; delete schema.maxItems; delete schema.minimum; delete schema.maximum;
      if (typeof schema.type === 'string' && !field.type.startsWith('array.')) schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
      return schema;
    }
  }
}

function recordObjectSchema(fields: FieldModel[], models: Record<string, EntityModel>): JsonSchema {
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
