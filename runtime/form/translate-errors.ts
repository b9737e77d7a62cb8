import type { RJSFValidationError } from '@rjsf/utils';

type Schema = Record<string, unknown>;

/** AJV keyword -> manifest rule name whose message key x-messages holds. */
const RULE_BY_KEYWORD: Record<string, string> = {
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
  minItems: 'minItems',
  maxItems: 'maxItems',
};

/** The sub-schema at an RJSF property path (".chunks.0.content"), following items for indexes. */
export function schemaAtPath(schema: Schema, path: string): Schema | null {
  let node: Schema | null = schema;
  for (const segment of path.split('.').filter(Boolean)) {
    if (!node) return null;
    if (/^\d+$/.test(segment) && node.items) node = node.items as Schema;
    else node = ((node.properties as Record<string, Schema> | undefined)?.[segment]) ?? null;
  }
  return node;
}

/**
 * The x-messages for a property path: the node's own, else (for an item of a list, e.g.
 * ".ipv4.0") the list's, where the manifest puts the rules of array.string fields.
 */
function messagesAt(schema: Schema, path: string): Record<string, string> {
  const own = schemaAtPath(schema, path)?.['x-messages'] as Record<string, string> | undefined;
  if (own) return own;
  const segments = path.split('.').filter(Boolean);
  if (segments.length > 1 && /^\d+$/.test(segments.at(-1)!)) return messagesAt(schema, segments.slice(0, -1).join('.'));
  return {};
}

/**
 * Replaces AJV's English messages with the field's x-messages key for the failed rule, translated
 * with {{min}} / {{max}} from the rule's limit; unknown rules say validation.invalidValue.
 */
export function createErrorTransformer(schema: Schema, translate: (key: string, values?: Record<string, unknown>) => string) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // if/then branches report a generic "must match then schema"; the required error beside it says it all.
      .filter((error) => error.name !== 'if')
      .map((error) => {
        const declared = schemaAtPath(schema, error.property ?? '')?.type;
        const types = Array.isArray(declared) ? declared : [declared];
        const rule = error.name === 'type' && types.includes('integer') ? 'integer' : RULE_BY_KEYWORD[error.name ?? ''];
        const messages = messagesAt(schema, error.property ?? '');
        // A number field holding text that is no number (kept as typed, never turned into another number).
        const notANumber = error.name === 'type' && types.includes('number');
        const key = (rule && messages[rule]) ?? (rule === 'required' ? 'validation.required' : rule === 'integer' ? 'validation.integer' : notANumber ? 'validation.number' : 'validation.invalidValue');
        const limit = (error.params as { limit?: unknown } | undefined)?.limit;
        const message = translate(key, { min: limit, max: limit });
        return { ...error, message, stack: message };
      });
}

/** The top-level field an RJSF error property (".ipv4.0", ".name", "['a.b']") belongs to; '' for the form itself. */
export function rootFieldOfProperty(property: string | undefined): string {
  const path = property ?? '';
  const bracket = /^\['([^']*)'\]/.exec(path);
  if (bracket) return bracket[1]!;
  return path.replace(/^\./, '').split('.')[0] ?? '';
}

/** The top-level field of an RJSF widget id ("root_ipv4_0"): the longest field name it starts with. */
export function rootFieldOfWidgetId(id: string, fields: readonly string[]): string | null {
  const rest = id.replace(/^root_/, '');
  let best: string | null = null;
  for (const field of fields) {
    if ((rest === field || rest.startsWith(`${field}_`)) && (best === null || field.length > best.length)) best = field;
  }
  return best;
}
