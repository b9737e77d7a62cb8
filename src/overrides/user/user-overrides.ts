import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { AssignableRoleWidget } from './assignable-role-widget.tsx';
import { ChangePasswordAction } from './change-password-action.tsx';
import { mayActOnUserRow } from './user-row-rules.ts';

export const userOverrides: EntityOverrides = {
  page: lazyWithPreload(() => import('./user-page.tsx').then((module) => module.UserPage)),
  form: lazyWithPreload(() => import('./user-form.tsx').then((module) => module.UserForm)),
  // Only the roles the user may assign (issue 27 item 3).
  fieldWidgets: { role: AssignableRoleWidget },
  // Rows of users the server would not let this user change offer no Editar, Eliminar or password reset.
  rowAllows: (_operation, record) => mayActOnUserRow(record),
  canSubmit: mayActOnUserRow,
  rowActions: {
    changePassword: { component: ChangePasswordAction },
  },
};
