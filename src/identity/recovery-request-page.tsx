import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api } from '../session/session.ts';
import { recoveryRequestError } from './form-rules.ts';
import { useFormSubmit } from './use-form-submit.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { SuccessState } from './success-state.tsx';
import { useTranslateMessage } from './use-translate-message.ts';

/** docs/product-rules.md#screens /password/recovery/request: e-mail entry, then a success info message. */
export default function RecoveryRequestPage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [email, setEmail] = useState('');
  const { submitting, done, error, fields, setFields, run } = useFormSubmit();
  const invalid = recoveryRequestError(email);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (invalid) return;
    await run(() => api.recoveryRequest(email.trim()));
  }

  return (
    <IdentityCard title={t('recovery.requestTitle')}>
      {done ? (
        <SuccessState message={t('recovery.requestSuccess')} to="/login" action={t('recovery.toLogin')} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('recovery.requestHelp')}
          </Text>
          <ErrorAlert message={error} />
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('recovery.email')}
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => {
                  setEmail(event.currentTarget.value);
                  setFields({});
                }}
                error={translate(fields.email ?? (email.trim() !== '' ? invalid : null)) || undefined}
                data-testid="recovery-email"
              />
              <Button type="submit" disabled={invalid !== null} loading={submitting} data-testid="recovery-submit">
                {t('recovery.requestSubmit')}
              </Button>
            </Stack>
          </form>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login">
              {t('recovery.toLogin')}
            </Anchor>
          </Text>
        </>
      )}
    </IdentityCard>
  );
}
