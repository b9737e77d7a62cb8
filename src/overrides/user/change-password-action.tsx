import { ActionIcon, Tooltip } from '@mantine/core';
import type { RowActionComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { recordId } from '../../../runtime/crud/prepare-record.ts';
import { passwordDialog } from './password-dialog-store.ts';
import { mayActOnUserRow } from './user-row-rules.ts';

/** A user row's Cambiar contraseña: only on users the server lets this user reset (issue 27 item 3). */
export function ChangePasswordAction({ row, label, icon: Icon }: RowActionComponentProps) {
  if (!mayActOnUserRow(row)) return null;
  const open = () => {
    const id = recordId(row);
    if (!id) throw new Error('changePassword: the user row has no identifier');
    passwordDialog.open({ id, username: String(row.username ?? '') });
  };
  return (
    <Tooltip label={label} openDelay={300} closeDelay={250}>
      <ActionIcon variant="subtle" aria-label={label} onClick={open} data-testid="user-change-password">
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
