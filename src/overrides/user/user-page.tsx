import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import type { CrudPageProps } from '../../../runtime/overrides/override-registry.ts';
import { AdminPasswordDialog } from './admin-password-dialog.tsx';

/** Spec §2 User page: the generic page plus the per-row change-password dialog. */
export function UserPage({ model }: CrudPageProps) {
  return (
    <>
      <CrudPage model={model} />
      <AdminPasswordDialog />
    </>
  );
}
