import { useEffect, useState } from 'react';
import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { chatApi, chatFailureKey } from './chat-api.ts';
import { ChatWindow } from './chat-window.tsx';
import { ContactForm } from './contact-form.tsx';
import { chatVisitorApi, resumeTokens, tellWidget } from './chat-visitor-api.ts';
import { embedContext } from './embed-context.ts';
import { useChatColorScheme } from './chat-header.tsx';

/**
 * /chat/:botId/:conversationId? (docs/product-rules.md#screens Chat routes): the contact form, or the chat window. A
 * browser that chatted with this bot before resumes its conversation (signed token in
 * localStorage). Inside the widget's iframe (?embed=1) it tells the widget the bot's look.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const { botId = '', conversationId } = useParams();
  const navigate = useNavigate();
  const { search } = useLocation();
  const bot = useQuery({ queryKey: ['chat-bot', botId], queryFn: () => chatApi.bot(botId), retry: false, staleTime: 60_000 });
  useChatColorScheme(bot.data?.widgetTheme);
  const [resuming, setResuming] = useState(() => !conversationId && resumeTokens.get(botId) !== null);

  useEffect(() => {
    if (bot.data) tellWidget({ type: 'forja:ready', title: bot.data.widgetTitle || bot.data.name, color: bot.data.widgetColor, position: bot.data.widgetPosition });
  }, [bot.data]);

  useEffect(() => {
    if (!resuming || conversationId) return;
    const token = resumeTokens.get(botId);
    if (!token) return setResuming(false);
    chatVisitorApi
      .resume(botId, token)
      .then((conversation) => {
        resumeTokens.set(botId, conversation.token);
        navigate(`/chat/${encodeURIComponent(botId)}/${encodeURIComponent(conversation._id)}${search}`, { replace: true });
      })
      .catch(() => {
        // Gone or not valid any more: a fresh start.
        resumeTokens.clear(botId);
      })
      .finally(() => setResuming(false));
  }, [resuming, conversationId, botId, navigate, search]);

  if (bot.isPending || (resuming && !conversationId)) {
    return (
      <Center py="xl">
        <Loader aria-label={t('chat.typing')} />
      </Center>
    );
  }
  if (bot.isError) {
    const refused = chatFailureKey(bot.error) === 'chat.error.originNotAllowed';
    return (
      <Alert color="red" data-testid={refused ? 'chat-origin-refused' : 'chat-bot-error'}>
        {t(refused ? 'chat.notAllowedHere' : 'chat.botNotFound')}
      </Alert>
    );
  }
  return conversationId ? <ChatWindow bot={bot.data} conversationId={conversationId} embedded={embedContext.embedded} /> : <ContactForm bot={bot.data} />;
}
