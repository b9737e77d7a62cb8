import { useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api } from '../session/session.ts';
import { canSubmitPasswordChange, confirmationError, type PasswordChangeInput } from './form-rules.ts';
import { useFormSubmit } from './use-form-submit.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { SuccessState } from './success-state.tsx';
import { useTranslateMessage } from './use-translate-message.ts';

/** docs/product-rules.md#screens /password/change: current, new and confirmation, then a success message. */
export default function PasswordChangePage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [form, setForm] = useState<PasswordChangeInput>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const { submitting, done, error, fields, setFields, run } = useFormSubmit();
  const valid = canSubmitPasswordChange(form);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    await run(() => api.changePassword(form.currentPassword, form.newPassword.trim()));
  }

  const input = (name: keyof PasswordChangeInput, label: string, autoComplete: string, localError: string | null = null) => (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      value={form[name]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setForm((current) => ({ ...current, [name]: value }));
        setFields((current) => ({ ...current, [name]: undefined }));
      }}
      error={translate(fields[name] ?? localError) || undefined}
      data-testid={`password-${name}`}
    />
  );

  return (
    <IdentityCard title={t('password.changeTitle')}>
      {done ? (
        <SuccessState message={t('password.changeSuccess')} to="/profile" action={t('password.toProfile')} />
      ) : (
        <>
          <ErrorAlert message={error} />
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              {input('currentPassword', t('password.current'), 'current-password')}
              {input('newPassword', t('password.new'), 'new-password')}
              {input('confirmPassword', t('password.confirm'), 'new-password', confirmationError(form.newPassword, form.confirmPassword))}
              <Button type="submit" disabled={!valid} loading={submitting} data-testid="password-submit">
                {t('password.changeSubmit')}
              </Button>
            </Stack>
          </form>
        </>
      )}
    </IdentityCard>
  );
}
