import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { isSeededAdminRole } from './seeded-admin-role.ts';

export const roleOverrides: EntityOverrides = {
  form: lazyWithPreload(() => import('./role-form.tsx').then((module) => module.RoleForm)),
  // Read-only roles show a warning (spec §3); their only change is unlocking, which the seeded Admin never allows.
  canSubmit: (record) => !isSeededAdminRole(record),
};
