import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { mayChangeRoleRow, maySubmitRole } from './role-rules.ts';

export const roleOverrides: EntityOverrides = {
  form: lazyWithPreload(() => import('./role-form.tsx').then((module) => module.RoleForm)),
  // Read-only roles show a warning and offer no submit (docs/product-rules.md#entities); their only change is unlocking
  // (the form's own button), which the seeded Admin never allows; a role above the user's cannot
  // be changed at all (the server's rule).
  canSubmit: maySubmitRole,
  rowAllows: (operation, record) => mayChangeRoleRow(record, operation === 'delete'),
};
