import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { resumeTokens } from './chat-visitor-api.ts';
import { ChatHeader } from './chat-header.tsx';
import { isApiError } from '../../runtime/transport/api-error.ts';
import { chatApi, chatFailureKey, UNEXPECTED_CHAT_ERROR } from './chat-api.ts';
import type { ChatBot } from './chat-types.ts';
import { emailError, nameError } from './contact-rules.ts';

/** Name and email, then start (docs/product-rules.md#screens, #validation): submit stays disabled until both are valid. */
export function ContactForm({ bot }: { bot: ChatBot }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
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
      resumeTokens.set(bot._id, conversation.token);
      navigate(`/chat/${encodeURIComponent(bot._id)}/${encodeURIComponent(conversation._id)}${search}`);
    } catch (error) {
      // docs/product-rules.md#errors: the server's i18nMessage translated, else 'Ocurrió un error inesperado.'
      if (isApiError(error)) setServerErrors(error.inputErrors);
      const key = chatFailureKey(error);
      setFailure(i18n.exists(key) ? key : UNEXPECTED_CHAT_ERROR);
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <ChatHeader bot={bot} size="h3" />
        {bot.welcomeMessage && (
          <Text size="sm" data-testid="chat-welcome">
            {bot.welcomeMessage}
          </Text>
        )}
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
        <Text size="xs" c="dimmed" data-testid="chat-consent">
          <Trans i18nKey="chat.consent" components={{ 1: <Anchor href="/politica-privacidad" target="_blank" rel="noopener" size="xs" /> }} />
        </Text>
        <Button type="submit" disabled={!valid} loading={submitting} fullWidth>
          {t('chat.start')}
        </Button>
      </Stack>
    </form>
  );
}
