import { SYSTEM_FIELDS } from '../../contract/model/entity-model.ts';
import { HttpError } from '../http/http-error.ts';
import type { EntityDefinition } from './entity-definition.ts';
import { isPlainObject } from './entity-validator.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';

const SYSTEM = new Set<string>(SYSTEM_FIELDS);

/**
 * Prepares a create/update body for validation. Forms send copies of rows, so system fields
 * (_id, createdAt, updatedAt, the tenant column) and readonly fields are dropped silently, and
 * populated refs ({ _id, name }) are reduced to their ids. Any other unknown property stays,
 * so validation rejects it by name.
 */
export function sanitiseBody(definition: EntityDefinition, body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new HttpError(400, 'The request body must be a JSON object');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const field = definition.fields.get(key);
    if (!field) {
      if (SYSTEM.has(key) || key === definition.tenantColumn) continue;
      out[key] = value;
      continue;
    }
    if (field.readonly) continue;
    // A ref (one, or a list of them) may come as the populated record the API returned: its id is kept.
    if (!field.ref) out[key] = value;
    else if (fieldType(field.type).list) out[key] = Array.isArray(value) ? value.map(refId).filter((id) => id !== null) : value;
    else out[key] = refId(value);
  }
  return out;
}

/** A ref given as an id, a {_id} / {id} object, or nothing ('' and null both clear it). */
export function refId(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return null;
  if (isPlainObject(value)) {
    const id = value._id ?? value.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : value;
  }
  return typeof value === 'number' ? String(value) : value;
}
