import type { RuleName } from '../model/entity-model.ts';

// The one mapping from an Ajv error to the locale key a person reads, used by the server's body
// validation (server/entities/entity-validator.ts) and the console's form
// (runtime/form/translate-errors.ts), so the API and the form say the same thing about the same
// value. The schemas are the generator's (generator/emit/json-schema.ts): every property lists
// the message key of each of its rules in "x-messages".

type Schema = Record<string, unknown>;

/** What both sides know of an Ajv error (Ajv's ErrorObject and RJSF's error carry these). */
export interface AjvErrorLike {
  keyword: string;
  params?: Record<string, unknown> | undefined;
}

/** Ajv keyword -> the manifest rule whose message key a property's "x-messages" holds. */
export const RULE_BY_AJV_KEYWORD: Readonly<Record<string, RuleName>> = {
  required: 'required',
  pattern: 'pattern',
  minLength: 'minLength',
  maxLength: 'maxLength',
  minimum: 'min',
  maximum: 'max',
  exclusiveMinimum: 'min',
  exclusiveMaximum: 'max',
  multipleOf: 'integer',
  format: 'format',
  enum: 'enum',
  const: 'enum',
  minItems: 'minItems',
  maxItems: 'maxItems',
};

/** Rules whose message key, when a schema names none, is validation.<rule> (locales/ has each). */
const RULES_WITH_OWN_KEY: ReadonlySet<RuleName> = new Set<RuleName>(['required', 'unique', 'pattern', 'minLength', 'maxLength', 'min', 'max', 'integer', 'minItems', 'maxItems']);

export const INVALID_VALUE_KEY = 'validation.invalidValue';
export const UNKNOWN_FIELD_KEY = 'validation.unknownField';
/** A number field holding something that is no number (the form keeps what was typed). */
export const NOT_A_NUMBER_KEY = 'validation.number';

/**
 * The locale key of one Ajv error about the value at `path` (property names and list indexes from
 * the root; for `required`, the missing property included), or null for an error another one
 * already says (an if/then branch fails beside the `required` error of its then).
 */
export function ajvErrorKey(root: Schema, path: readonly string[], error: AjvErrorLike): string | null {
  switch (error.keyword) {
    case 'if':
      return null;
    case 'additionalProperties':
      return UNKNOWN_FIELD_KEY;
    case 'type': {
      const expected = expectedTypes(root, path, error);
      // A whole number is asked for: 1.5 and "many" alike are not one.
      if (expected.includes('integer')) return messageKey(root, path, 'integer');
      if (expected.includes('number')) return NOT_A_NUMBER_KEY;
      return INVALID_VALUE_KEY;
    }
    default: {
      const rule = RULE_BY_AJV_KEYWORD[error.keyword];
      return rule ? messageKey(root, path, rule) : INVALID_VALUE_KEY;
    }
  }
}

/**
 * The message key of `rule` for the value at `path`: its own schema's "x-messages", else (an item
 * of a list: ipv4.1) its list's, where the manifest puts the rules of list items; else the rule's
 * default key.
 */
export function messageKey(root: Schema, path: readonly string[], rule: RuleName): string {
  for (let end = path.length; end >= 0; end--) {
    const messages = schemaAt(root, path.slice(0, end))?.['x-messages'] as Record<string, string> | undefined;
    if (messages?.[rule]) return messages[rule];
    // Only a list item falls back to its list; a property's own schema decides for it.
    if (end === 0 || !/^\d+$/.test(path[end - 1]!)) break;
  }
  return RULES_WITH_OWN_KEY.has(rule) ? `validation.${rule}` : INVALID_VALUE_KEY;
}

/** The sub-schema at a path, following `items` for list indexes; null where there is none. */
export function schemaAt(root: Schema, path: readonly string[]): Schema | null {
  let node: Schema | null = root;
  for (const segment of path) {
    if (!node) return null;
    if (/^\d+$/.test(segment) && node.items && typeof node.items === 'object') node = node.items as Schema;
    else node = ((node.properties as Record<string, Schema> | undefined)?.[segment]) ?? null;
  }
  return node;
}

/** The path of an Ajv error's value: its instancePath, plus the missing or unknown property it names. */
export function ajvErrorPath(error: AjvErrorLike & { instancePath: string }): string[] {
  const path = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const named = error.keyword === 'required' ? error.params?.missingProperty : error.keyword === 'additionalProperties' ? error.params?.additionalProperty : undefined;
  if (named !== undefined) path.push(String(named));
  return path;
}

function expectedTypes(root: Schema, path: readonly string[], error: AjvErrorLike): string[] {
  const declared = error.params?.type ?? schemaAt(root, path)?.type;
  if (Array.isArray(declared)) return declared.map(String);
  return typeof declared === 'string' ? declared.split(',') : [];
}
