import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { recordId } from '../../../runtime/crud/prepare-record.ts';
import { passwordDialog } from './password-dialog-store.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { AssignableRoleWidget } from './assignable-role-widget.tsx';

export const userOverrides: EntityOverrides = {
  page: lazyWithPreload(() => import('./user-page.tsx').then((module) => module.UserPage)),
  form: lazyWithPreload(() => import('./user-form.tsx').then((module) => module.UserForm)),
  // Only the roles the user may assign (issue 27 item 3).
  fieldWidgets: { role: AssignableRoleWidget },
  rowActions: {
    changePassword: ({ row }) => {
      const id = recordId(row);
      if (!id) throw new Error('changePassword: the user row has no identifier');
      passwordDialog.open({ id, username: String(row.username ?? '') });
    },
  },
};
