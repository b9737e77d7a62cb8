import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api } from '../../session/session.ts';
import { adminPasswordErrors, hasErrors, type FieldErrors } from '../../identity/form-rules.ts';
import { toFormFailure } from '../../identity/server-errors.ts';
import { ErrorAlert } from '../../identity/error-alert.tsx';
import { useTranslateMessage } from '../../identity/use-translate-message.ts';
import { passwordDialog, usePasswordTarget, type PasswordTarget } from './password-dialog-store.ts';

/** docs/product-rules.md#states Password dialog (admin): entering, then changed with a success message and only Close. */
export function AdminPasswordDialog() {
  const { t } = useTranslation();
  const target = usePasswordTarget();
  return (
    <Modal opened={target !== null} onClose={() => passwordDialog.close()} title={t('userPassword.title')} size={800}>
      {target && <PasswordForm key={target.id} target={target} />}
    </Modal>
  );
}

function PasswordForm({ target }: { target: PasswordTarget }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<{ message: string | null; fields: FieldErrors }>({ message: null, fields: {} });
  const [saving, setSaving] = useState(false);
  const [changed, setChanged] = useState(false);
  const errors = adminPasswordErrors(newPassword, confirmPassword);
  const shown = (field: 'newPassword' | 'confirmPassword') => translate(server.fields[field] ?? (touched || (field === 'confirmPassword' && confirmPassword) ? errors[field] : undefined)) || undefined;

  async function submit() {
    setTouched(true);
    if (hasErrors(errors)) return;
    setSaving(true);
    try {
      await api.adminChangePassword(target.id, newPassword.trim());
      setChanged(true);
    } catch (failure) {
      setServer(toFormFailure(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack>
      <Text fw={500} data-testid="password-dialog-username">
        {t('userPassword.forUser', { username: target.username })}
      </Text>
      {changed ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} data-testid="password-dialog-success">
          {t('userPassword.success')}
        </Alert>
      ) : (
        <>
          <ErrorAlert message={server.message} />
          <PasswordInput label={t('password.new')} autoComplete="new-password" value={newPassword} onChange={(event) => setNewPassword(event.currentTarget.value)} error={shown('newPassword')} data-testid="admin-new-password" />
          <PasswordInput label={t('password.confirm')} autoComplete="new-password" value={confirmPassword} onChange={(event) => setConfirmPassword(event.currentTarget.value)} error={shown('confirmPassword')} data-testid="admin-confirm-password" />
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => passwordDialog.close()} disabled={saving}>
          {changed ? t('userPassword.close') : t('crud.cancel')}
        </Button>
        {!changed && (
          <Button onClick={() => void submit()} loading={saving} disabled={touched && hasErrors(errors)} data-testid="admin-password-submit">
            {t('userPassword.submit')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
