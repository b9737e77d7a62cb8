import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';

export const roleOverrides: EntityOverrides = {
  form: lazyWithPreload(() => import('./role-form.tsx').then((module) => module.RoleForm)),
  // Read-only roles show a warning and offer no submit (spec §3).
  canSubmit: (record) => record.readonly !== true,
};
