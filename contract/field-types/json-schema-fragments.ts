import type { FieldModel, FieldType } from '../model/entity-model.ts';

// Building blocks of the field types' JSON Schema fragments (draft-07, the dialect of Ajv's
// default and of RJSF). The emitter (generator/emit/json-schema.ts) assembles them into the
// schemas the server validates with and the form renders.

export type JsonSchema = Record<string, unknown>;

/** What the input schema emitter supplies to a fragment: nesting, in its mode (create, update, form). */
export interface InputSchemaWriter {
  /** The schema of a nested object's fields (object, array.object). */
  object(fields: readonly FieldModel[]): JsonSchema;
  /** The input schema of `field` read as another type: a list's items carry the list's rules. */
  item(field: FieldModel, type: FieldType): JsonSchema;
}

/** What the record schema emitter supplies to a fragment. */
export interface RecordSchemaWriter {
  /** A referenced record as the API populates it (_id, its display and populated fields). */
  populatedRef(field: FieldModel): JsonSchema;
  /** A nested object as a record holds it. */
  object(fields: readonly FieldModel[]): JsonSchema;
  /** The field's input schema without its limits, null allowed: how a plain stored value reads. */
  plain(field: FieldModel): JsonSchema;
}

/** An uploaded file (fullFile) as the files endpoint answers it. */
export const UPLOADED_FILE_SCHEMA: JsonSchema = {
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

/** A text value with the field's length, pattern and format rules. */
export function stringSchema(field: FieldModel): JsonSchema {
  const v = field.validation;
  const out: JsonSchema = { type: 'string' };
  if (v.minLength !== null) out.minLength = v.minLength;
  if (v.maxLength !== null) out.maxLength = v.maxLength;
  if (v.pattern !== null) out.pattern = v.pattern;
  if (v.format !== null) out.format = v.format;
  return out;
}

/** A number (an integer when the field says so) with the field's bounds. */
export function numberSchema(field: FieldModel): JsonSchema {
  const v = field.validation;
  const out: JsonSchema = { type: v.integer ? 'integer' : 'number' };
  if (v.min !== null) out.minimum = v.min;
  if (v.max !== null) out.maximum = v.max;
  return out;
}

/** A referenced record's id in an input. */
export const refIdSchema = (): JsonSchema => ({ type: 'string', minLength: 1, maxLength: 64 });

/** A list of `items` with the field's item-count rules. */
export function listSchema(field: FieldModel, items: JsonSchema): JsonSchema {
  const v = field.validation;
  const out: JsonSchema = { type: 'array', items };
  if (v.minItems !== null) out.minItems = v.minItems;
  if (v.maxItems !== null) out.maxItems = v.maxItems;
  return out;
}

/** The record fragment of every plain value: the input schema without limits, nullable. */
export const plainRecord = (field: FieldModel, writer: RecordSchemaWriter): JsonSchema => writer.plain(field);
