import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isApiError } from '../../runtime/transport/api-error.ts';
import { chatApi, chatFailureKey, UNEXPECTED_CHAT_ERROR } from './chat-api.ts';
import type { ChatBot } from './chat-types.ts';
import { emailError, nameError } from './contact-rules.ts';

/** Name and email, then start (spec §2, §5): submit stays disabled until both are valid. */
export function ContactForm({ bot }: { bot: ChatBot }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState({ name: false, email: false });
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const errors = { name: nameError(name), email: emailError(email) };
  const valid = errors.name === null && errors.email === null;
  const shown = (field: 'name' | 'email') => (touched[field] && errors[field]) || serverErrors[field]?.[0] || null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || submitting) return;
    setSubmitting(true);
    setServerErrors({});
    setFailure(null);
    try {
      const conversation = await chatApi.start({ name: name.trim(), email: email.trim(), botId: bot._id });
      navigate(`/chat/${encodeURIComponent(bot._id)}/${encodeURIComponent(conversation._id)}`);
    } catch (error) {
      // Spec §8: the server's i18nMessage translated, else 'Ocurrió un error inesperado.'
      if (isApiError(error)) setServerErrors(error.inputErrors);
      const key = chatFailureKey(error);
      setFailure(i18n.exists(key) ? key : UNEXPECTED_CHAT_ERROR);
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Title order={3}>{bot.name}</Title>
        <Text size="sm" c="dimmed">
          {t('chat.contactIntro')}
        </Text>
        {failure && (
          <Alert color="red" data-testid="chat-start-error" withCloseButton onClose={() => setFailure(null)}>
            {t(failure)}
          </Alert>
        )}
        <TextInput
          label={t('chat.name')}
          name="name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={() => setTouched((s) => ({ ...s, name: true }))}
          error={shown('name') ? t(shown('name')!) : null}
        />
        <TextInput
          label={t('chat.email')}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          onBlur={() => setTouched((s) => ({ ...s, email: true }))}
          error={shown('email') ? t(shown('email')!) : null}
        />
        <Button type="submit" disabled={!valid} loading={submitting} fullWidth>
          {t('chat.start')}
        </Button>
      </Stack>
    </form>
  );
}
