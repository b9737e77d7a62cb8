import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { chatApi } from './chat-api.ts';
import { ChatWindow } from './chat-window.tsx';
import { ContactForm } from './contact-form.tsx';

/** /chat/:botId/:conversationId? (spec §2 Chat routes): the contact form, or the chat window. */
export default function ChatPage() {
  const { t } = useTranslation();
  const { botId = '', conversationId } = useParams();
  const bot = useQuery({ queryKey: ['chat-bot', botId], queryFn: () => chatApi.bot(botId), retry: false, staleTime: 60_000 });

  if (bot.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('chat.typing')} />
      </Center>
    );
  }
  if (bot.isError) {
    return (
      <Alert color="red" data-testid="chat-bot-error">
        {t('chat.botNotFound')}
      </Alert>
    );
  }
  return conversationId ? <ChatWindow bot={bot.data} conversationId={conversationId} /> : <ContactForm bot={bot.data} />;
}
