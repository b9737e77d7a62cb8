import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { recordId } from '../../../runtime/crud/prepare-record.ts';
import { passwordDialog } from './password-dialog-store.ts';
import { UserPage } from './user-page.tsx';
import { UserForm } from './user-form.tsx';

export const userOverrides: EntityOverrides = {
  page: UserPage,
  form: UserForm,
  rowActions: {
    changePassword: ({ row }) => {
      const id = recordId(row);
      if (!id) throw new Error('changePassword: the user row has no identifier');
      passwordDialog.open({ id, username: String(row.username ?? '') });
    },
  },
};
