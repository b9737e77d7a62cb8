import { useEffect } from 'react';
import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import type { CrudPageProps } from '../../../runtime/overrides/override-registry.ts';
import { api } from '../../session/session.ts';
import { AdminPasswordDialog } from './admin-password-dialog.tsx';
import { setUserRowContext } from './user-row-rules.ts';

/**
 * docs/product-rules.md#screens User page: the generic page plus the per-row change-password dialog. The list waits for
 * the roles the user may read and assign, so its rows offer only what the server allows
 * (user-row-rules.ts); if those lookups fail, the rows offer everything and the server decides.
 */
export function UserPage({ model }: CrudPageProps) {
  const roles = useQuery({ queryKey: ['role', 'all-with-permissions'], queryFn: () => api.rolesAll(), staleTime: 30_000 });
  const assignable = useQuery({ queryKey: ['role', 'assignable'], queryFn: () => api.assignableRoles(), staleTime: 30_000 });
  const ready = !roles.isPending && !assignable.isPending;
  // Set during render, before the table below reads it; cleared when the page goes.
  setUserRowContext(roles.data && assignable.data ? { roles: roles.data, assignable: assignable.data } : null);
  useEffect(() => () => setUserRowContext(null), []);
  if (!ready) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <>
      <CrudPage model={model} />
      <AdminPasswordDialog />
    </>
  );
}
