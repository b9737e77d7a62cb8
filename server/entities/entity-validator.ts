import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../generated/schemas.ts';
import type { InputError } from '../http/http-error.ts';
import { INVALID_VALUE_KEY, UNKNOWN_FIELD_KEY, ajvErrorKey, ajvErrorPath } from '../../contract/validation/ajv-error-keys.ts';

export const UNKNOWN_FIELD_REASON = UNKNOWN_FIELD_KEY;
export const INVALID_VALUE_REASON = INVALID_VALUE_KEY;

/** Validates one kind of body (create or update) and answers the input errors, [] when valid. */
export type BodyValidator = (input: Record<string, unknown>) => InputError[];

/** Compiles a schema once; the returned function is what runs on every request. */
export function compileBodyValidator(ajv: Ajv, schema: JsonSchema): BodyValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (input) => {
    // Blank required values (null, '', '  ', []) are reported as "required" by hiding them from
    // Ajv, whose own rules would only see a type or minLength problem.
    const candidate = withoutBlankRequired(schema, input);
    if (validate(candidate)) return [];
    return toInputErrors(schema, validate.errors ?? []);
  };
}

/** Ajv's errors as input errors: each value's path and the locale key of what is wrong (contract/validation/ajv-error-keys.ts). */
function toInputErrors(root: JsonSchema, errors: ErrorObject[]): InputError[] {
  const result: InputError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = ajvErrorPath(error);
    const reason = ajvErrorKey(root, path, error);
    if (reason === null) continue;
    const field = path.join('.');
    const key = `${field}\u0000${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ field, reason });
  }
  return result;
}

function withoutBlankRequired(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items && typeof items === 'object' ? value.map((item) => withoutBlankRequired(items, item)) : value;
  }
  if (!isPlainObject(value)) return value;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return value;
  const required = requiredNames(schema);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (required.has(key) && isBlank(item)) continue;
    const property = properties[key];
    out[key] = property ? withoutBlankRequired(property, item) : item;
  }
  return out;
}

/** Unconditional and conditional (allOf[].then) required names of an object schema. */
function requiredNames(schema: JsonSchema): Set<string> {
  const names = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) {
    const then = part.then as JsonSchema | undefined;
    for (const name of (then?.required as string[] | undefined) ?? []) names.add(name);
  }
  return names;
}

export function isBlank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
