import type { Can } from '../permissions/permissions-context.tsx';

/** What RJSF templates and widgets read from the form context. */
export interface EntityFormContext {
  can: Can;
}
