import { useState, type FormEvent } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api } from '../session/session.ts';
import type { RegistrationInput } from '../session/identity-api.ts';
import { hasErrors, registrationErrors } from './form-rules.ts';
import { useFormSubmit } from './use-form-submit.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { SuccessState } from './success-state.tsx';
import { useTranslateMessage } from './use-translate-message.ts';

const EMPTY: RegistrationInput = { username: '', name: '', email: '', phone: '', password: '', confirmPassword: '' };

/** docs/product-rules.md#screens /registration: the form, then a success message with a button to /login. */
export default function RegistrationPage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [form, setForm] = useState(EMPTY);
  const [touched, setTouched] = useState(false);
  const { submitting, done, error, fields: serverFields, setFields: setServerFields, run } = useFormSubmit();
  const errors = registrationErrors(form);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (hasErrors(errors)) return;
    await run(() => api.register({ ...form, username: form.username.trim(), name: form.name.trim(), email: form.email.trim(), phone: form.phone.trim() }));
  }

  const field = (name: keyof RegistrationInput) => ({
    value: form[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setForm((current) => ({ ...current, [name]: value }));
      setServerFields((current) => ({ ...current, [name]: undefined }));
    },
    error: translate(serverFields[name] ?? (touched ? errors[name] : undefined)) || undefined,
    'data-testid': `registration-${name}`,
  });

  if (done) {
    return (
      <IdentityCard title={t('registration.title')}>
        <SuccessState message={t('registration.success')} to="/login" action={t('registration.toLogin')} />
      </IdentityCard>
    );
  }
  return (
    <IdentityCard title={t('registration.title')}>
      <ErrorAlert message={error} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <TextInput label={t('registration.name')} required {...field('name')} />
          <TextInput label={t('registration.username')} required autoComplete="username" {...field('username')} />
          <TextInput label={t('registration.email')} required type="email" autoComplete="email" {...field('email')} />
          <TextInput label={t('registration.phone')} required type="tel" autoComplete="tel" {...field('phone')} />
          <PasswordInput label={t('registration.password')} required autoComplete="new-password" {...field('password')} />
          <PasswordInput label={t('registration.confirmPassword')} required autoComplete="new-password" {...field('confirmPassword')} />
          <Button type="submit" loading={submitting} data-testid="registration-submit">
            {t('registration.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/login">
          {t('registration.haveAccount')}
        </Anchor>
      </Text>
    </IdentityCard>
  );
}
