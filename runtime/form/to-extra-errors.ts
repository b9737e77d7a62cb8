import type { ErrorSchema } from '@rjsf/utils';

/**
 * Server input errors by dotted path (parent.index.field) as the nested error schema RJSF shows
 * on each field (its `extraErrors`). Reasons are translated by the caller.
 */
export function toExtraErrors(fieldErrors: Record<string, string[]>, translate: (reason: string) => string): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const [path, reasons] of Object.entries(fieldErrors)) {
    let node = root;
    for (const segment of path.split('.').filter(Boolean)) {
      node = (node[segment] ??= {}) as Record<string, unknown>;
    }
    const errors = ((node.__errors as string[] | undefined) ??= []);
    errors.push(...reasons.map(translate));
  }
  return root as ErrorSchema;
}
