import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../generated/schemas.ts';
import type { InputError } from '../http/http-error.ts';

/** Rules whose default message key is validation.<rule> (they exist in locales/). */
const RULES_WITH_OWN_KEY = new Set(['required', 'unique', 'pattern', 'minLength', 'maxLength', 'min', 'max', 'integer', 'minItems', 'maxItems']);

/** Ajv keyword -> rule name used by "x-messages". */
const KEYWORD_RULES: Record<string, string> = {
  required: 'required',
  minimum: 'min',
  exclusiveMinimum: 'min',
  maximum: 'max',
  exclusiveMaximum: 'max',
  minLength: 'minLength',
  maxLength: 'maxLength',
  pattern: 'pattern',
  format: 'format',
  enum: 'enum',
  const: 'enum',
  minItems: 'minItems',
  maxItems: 'maxItems',
};

export const UNKNOWN_FIELD_REASON = 'validation.unknownField';
export const INVALID_VALUE_REASON = 'validation.invalidValue';

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
    return toInputErrors(schema, candidate, validate.errors ?? []);
  };
}

function toInputErrors(root: JsonSchema, data: unknown, errors: ErrorObject[]): InputError[] {
  const result: InputError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // if/then failures are reported by the then-branch error itself.
    if (error.keyword === 'if') continue;
    const path = error.instancePath.split('/').slice(1).map(unescapePointer);
    let reason: string;
    if (error.keyword === 'required') {
      path.push(String((error.params as { missingProperty: string }).missingProperty));
      reason = messageFor(root, path, 'required');
    } else if (error.keyword === 'additionalProperties') {
      path.push(String((error.params as { additionalProperty: string }).additionalProperty));
      reason = UNKNOWN_FIELD_REASON;
    } else if (error.keyword === 'type') {
      const expected = String((error.params as { type: string }).type);
      reason = expected.includes('integer') && typeof valueAt(data, path) === 'number'
        ? messageFor(root, path, 'integer')
        : INVALID_VALUE_REASON;
    } else {
      const rule = KEYWORD_RULES[error.keyword];
      reason = rule ? messageFor(root, path, rule) : INVALID_VALUE_REASON;
    }
    const field = path.join('.');
    const key = `${field}\u0000${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ field, reason });
  }
  return result;
}

/**
 * The locale key for a rule at a path: the "x-messages" of the deepest schema along the path
 * that names the rule (array items inherit their list's messages: ipv4.1 -> invalidIpv4).
 */
function messageFor(root: JsonSchema, path: readonly string[], rule: string): string {
  let node: JsonSchema | undefined = root;
  let found: string | undefined;
  for (const segment of path) {
    node = childSchema(node, segment);
    if (!node) break;
    const messages = node['x-messages'] as Record<string, string> | undefined;
    if (messages?.[rule]) found = messages[rule];
  }
  if (found) return found;
  return RULES_WITH_OWN_KEY.has(rule) ? `validation.${rule}` : INVALID_VALUE_REASON;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function childSchema(node: JsonSchema | undefined, segment: string): JsonSchema | undefined {
  if (!node) return undefined;
  if (/^\d+$/.test(segment) && node.items && typeof node.items === 'object') return node.items as JsonSchema;
  const properties = node.properties as Record<string, JsonSchema> | undefined;
  return properties?.[segment];
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

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
