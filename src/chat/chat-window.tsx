import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Alert, Box, Button, Group, Popover, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { IconBulb, IconRefresh, IconSend } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PageFallback } from '../app/page-fallback.tsx';
import type { Reaction } from '../generated/types.ts';
import { ChatAnswerFailed, chatApi, chatFailureKey } from './chat-api.ts';
import { MessageBubble, TypingBubble } from './message-bubble.tsx';
import type { ChatBot, ChatConversation, ChatMessage } from './chat-types.ts';
import { resumeTokens } from './chat-visitor-api.ts';
import { ChatHeader } from './chat-header.tsx';
import { useChatFill } from './use-chat-fill.ts';
import { VerifyEmailPanel } from './verify-email-panel.tsx';

const MAX_MESSAGE_CHARS = 4000;

/**
 * The conversation (docs/product-rules.md#states Chat): sending appends the visitor's message locally, shows a typing
 * indicator, streams the answer in, then replaces the conversation with the server's. Failures of
 * messages and reactions are only logged (docs/product-rules.md#errors); the server keeps the conversation consistent.
 */
export function ChatWindow({ bot, conversationId, embedded = false }: { bot: ChatBot; conversationId: string; embedded?: boolean }) {
  const { t } = useTranslation();
  const fill = useChatFill();
  const navigate = useNavigate();
  const { search } = useLocation();
  const queryClient = useQueryClient();
  const queryKey = ['chat-conversation', conversationId];
  const loaded = useQuery({ queryKey, queryFn: () => chatApi.conversation(conversationId), retry: false });
  const [pending, setPending] = useState<{ user: ChatMessage; answer: string } | null>(null);
  const [input, setInput] = useState('');
  const [questionsOpen, setQuestionsOpen] = useState(false);
  // The last question that got no real answer: offered again with "Reintentar". `reason` is the
  // locale key to show when the server saved nothing (the failed answer itself says so otherwise).
  const [failed, setFailed] = useState<{ question: string; reason: string | null } | null>(null);
  const viewport = useRef<HTMLDivElement>(null);

  const conversation = loaded.data;
  const chats = conversation?.chats ?? [];

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [chats.length, pending?.answer, pending?.user.id]);

  const replace = (next: ChatConversation) => queryClient.setQueryData(queryKey, next);

  async function send(text: string) {
    const message = text.trim();
    if (message === '' || pending) return;
    setInput('');
    setQuestionsOpen(false);
    const user: ChatMessage = { id: `local-${Date.now()}`, role: 'user', message, createdAt: new Date().toISOString() };
    setPending({ user, answer: '' });
    setFailed(null);
    try {
      replace(await chatApi.streamMessage(conversationId, message, (delta) => setPending((p) => (p ? { ...p, answer: p.answer + delta } : p))));
    } catch (error) {
      console.error('chat message failed', error);
      if (error instanceof ChatAnswerFailed && error.conversation) {
        replace(error.conversation);
        setFailed({ question: message, reason: null });
      } else {
        // Refused before anything was saved (limit, network): give the visitor their text back.
        setInput(message);
        setFailed({ question: message, reason: chatFailureKey(error) });
        void loaded.refetch();
      }
    } finally {
      setPending(null);
    }
  }

  async function react(chat: ChatMessage, reaction: Reaction | null) {
    try {
      replace(await chatApi.reaction(conversationId, chat.id, reaction));
    } catch (error) {
      console.error('chat reaction failed', error);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(input);
    }
  }

  if (loaded.isPending) return <PageFallback />;
  if (loaded.isError) {
    return (
      <Stack>
        <Alert color="red" data-testid="chat-conversation-error">
          {t('chat.conversationNotFound')}
        </Alert>
        <Button component={Link} to={`/chat/${encodeURIComponent(bot._id)}`} variant="light">
          {t('chat.newConversation')}
        </Button>
      </Stack>
    );
  }

  const blank = input.trim() === '';
  const fresh = chats.length === 0 && !pending;

  function verified(next: ChatConversation) {
    resumeTokens.set(bot._id, next.token);
    queryClient.setQueryData(['chat-conversation', next._id], next);
    if (next._id !== conversationId) navigate(`/chat/${encodeURIComponent(bot._id)}/${encodeURIComponent(next._id)}${search}`, { replace: true });
  }

  return (
    <Stack gap="sm" style={fill ? { flex: 1, minHeight: 0 } : undefined}>
      <ChatHeader bot={bot} size="h4" />
      <ScrollArea h={fill ? undefined : 500} style={fill ? { flex: 1, minHeight: 0 } : undefined} viewportRef={viewport} type="auto" offsetScrollbars data-testid="chat-messages">
        <Stack gap="xs" py={4} role="log" aria-live="polite">
          {bot.welcomeMessage && (
            <MessageBubble chat={{ id: 'welcome', role: 'assistant', message: bot.welcomeMessage, createdAt: conversation?.createdAt ?? new Date().toISOString() }} testId="chat-welcome" />
          )}
          {fresh && !bot.welcomeMessage && (
            <Text size="sm" c="dimmed" ta="center" py="xl">
              {t('chat.empty')}
            </Text>
          )}
          {chats.map((chat) => (
            <MessageBubble key={chat.id} chat={chat} onReact={chat.role === 'assistant' ? (reaction) => void react(chat, reaction) : undefined} />
          ))}
          {pending && <MessageBubble chat={pending.user} />}
          {failed && !pending && (
            <Group gap="xs" justify="flex-start" data-testid="chat-failed">
              {failed.reason && (
                <Text size="xs" c="red" role="alert">
                  {t(failed.reason)}
                </Text>
              )}
              <Button size="compact-sm" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => void send(failed.question)} data-testid="chat-retry">
                {t('chat.retry')}
              </Button>
            </Group>
          )}
          {pending && (pending.answer ? <MessageBubble chat={{ id: 'streaming', role: 'assistant', message: pending.answer, createdAt: new Date().toISOString() }} /> : <TypingBubble />)}
        </Stack>
      </ScrollArea>
      {fresh && bot.questions.length > 0 && (
        <Group gap={6} data-testid="chat-suggestions" aria-label={t('chat.suggestions')} role="group">
          {bot.questions.map((question) => (
            <Button key={question} variant="light" radius="xl" size="compact-sm" h="auto" py={4} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} onClick={() => void send(question)}>
              {question}
            </Button>
          ))}
        </Group>
      )}
      {fresh && <VerifyEmailPanel conversationId={conversationId} onVerified={verified} />}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {!fresh && bot.questions.length > 0 && (
          <Popover opened={questionsOpen} onChange={setQuestionsOpen} position="top-start" withArrow shadow="md" width={280}>
            <Popover.Target>
              <ActionIcon
                variant="light"
                size="lg"
                aria-label={t('chat.suggestions')}
                title={t('chat.suggestions')}
                onClick={() => setQuestionsOpen((o) => !o)}
                disabled={pending !== null}
              >
                <IconBulb size={20} />
              </ActionIcon>
            </Popover.Target>
            <Popover.Dropdown p="xs">
              <Text size="xs" c="dimmed" mb={4}>
                {t('chat.suggestions')}
              </Text>
              <Stack gap={4}>
                {bot.questions.map((question) => (
                  <Button key={question} variant="subtle" size="compact-sm" justify="start" styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} h="auto" py={4} onClick={() => void send(question)}>
                    {question}
                  </Button>
                ))}
              </Stack>
            </Popover.Dropdown>
          </Popover>
        )}
        <Box style={{ flex: 1 }}>
          <Textarea
            aria-label={t('chat.placeholder')}
            placeholder={t('chat.placeholder')}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={MAX_MESSAGE_CHARS}
            value={input}
            onChange={(e) => setInput(e.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
        </Box>
        <ActionIcon size="lg" aria-label={t('chat.send')} title={t('chat.send')} disabled={blank || pending !== null} onClick={() => void send(input)}>
          <IconSend size={18} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}
