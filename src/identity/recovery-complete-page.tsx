import { useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { api } from '../session/session.ts';
import { canSubmitRecoveryComplete, confirmationError } from './form-rules.ts';
import { useFormSubmit } from './use-form-submit.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { SuccessState } from './success-state.tsx';
import { useTranslateMessage } from './use-translate-message.ts';

/** docs/product-rules.md#screens /password/recovery/complete/:code: code read-only, new password + confirmation. */
export default function RecoveryCompletePage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const code = useParams().code ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { submitting, done, error, fields, run } = useFormSubmit();
  const valid = canSubmitRecoveryComplete(code, newPassword, confirmPassword);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    await run(() => api.recoveryComplete(code, newPassword.trim()));
  }

  return (
    <IdentityCard title={t('recovery.completeTitle')}>
      {done ? (
        <SuccessState message={t('recovery.completeSuccess')} to="/login" action={t('recovery.toLogin')} />
      ) : (
        <>
          <ErrorAlert message={error} />
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <TextInput label={t('recovery.code')} value={code} readOnly error={translate(fields.recoveryCode) || undefined} data-testid="recovery-code" />
              <PasswordInput
                label={t('password.new')}
                autoComplete="new-password"
                value={newPassword}
                onChange={(event) => setNewPassword(event.currentTarget.value)}
                error={translate(fields.newPassword) || undefined}
                data-testid="recovery-new-password"
              />
              <PasswordInput
                label={t('password.confirm')}
                autoComplete="new-password"
                value={confirmPassword}
                onChange={(event) => setConfirmPassword(event.currentTarget.value)}
                error={translate(fields.confirmPassword ?? confirmationError(newPassword, confirmPassword)) || undefined}
                data-testid="recovery-confirm-password"
              />
              <Button type="submit" disabled={!valid} loading={submitting} data-testid="recovery-complete-submit">
                {t('recovery.completeSubmit')}
              </Button>
            </Stack>
          </form>
        </>
      )}
    </IdentityCard>
  );
}
