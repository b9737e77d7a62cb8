import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { RoleForm } from './role-form.tsx';

export const roleOverrides: EntityOverrides = {
  form: RoleForm,
  // Read-only roles show a warning and offer no submit (spec §3).
  canSubmit: (record) => record.readonly !== true,
};
