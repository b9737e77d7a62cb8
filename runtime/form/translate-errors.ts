import type { RJSFValidationError } from '@rjsf/utils';
import { ajvErrorKey, schemaAt } from '../../contract/validation/ajv-error-keys.ts';

type Schema = Record<string, unknown>;

/** The sub-schema at an RJSF property path (".chunks.0.content"), following items for indexes. */
export function schemaAtPath(schema: Schema, path: string): Schema | null {
  return schemaAt(schema, propertyPath(path));
}

/** An RJSF error property (".chunks.0.content", "['a.b'].c", "[0]") as path segments. */
export function propertyPath(property: string): string[] {
  const segments: string[] = [];
  for (const match of property.matchAll(/\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]|\.?([^.[]+)/g)) {
    segments.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3])!);
  }
  return segments;
}

/**
 * Replaces Ajv's English messages with the locale key the server answers for the same error
 * (contract/validation/ajv-error-keys.ts), translated with {{min}} / {{max}} from the rule's limit.
 */
export function createErrorTransformer(schema: Schema, translate: (key: string, values?: Record<string, unknown>) => string) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.flatMap((error) => {
      // RJSF's property already names the missing property of a `required` error.
      const key = ajvErrorKey(schema, propertyPath(error.property ?? ''), { keyword: error.name ?? '', params: error.params as Record<string, unknown> | undefined });
      if (key === null) return [];
      const limit = (error.params as { limit?: unknown } | undefined)?.limit;
      const message = translate(key, { min: limit, max: limit });
      return [{ ...error, message, stack: message }];
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
