import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api } from '../session/session.ts';
import { recoveryRequestError } from './form-rules.ts';
import { toFormFailure } from './server-errors.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { SuccessState } from './success-state.tsx';
import { useTranslateMessage } from './use-translate-message.ts';

/** Spec §2 /password/recovery/request: e-mail entry, then a success info message. */
export default function RecoveryRequestPage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [email, setEmail] = useState('');
  const [serverField, setServerField] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const invalid = recoveryRequestError(email);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (invalid) return;
    setSubmitting(true);
    try {
      await api.recoveryRequest(email.trim());
      setDone(true);
    } catch (failure) {
      const { message, fields } = toFormFailure(failure);
      setError(message);
      setServerField(fields.email ?? null);
    } finally {
      setSubmitting(false);
    }
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
                  setServerField(null);
                }}
                error={translate(serverField ?? (email.trim() !== '' ? invalid : null)) || undefined}
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
