import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { mayDo } from '../../../contract/permissions/entity-access.ts';
import type { EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { requireEntityClient, useRuntime } from '../../../runtime/context/runtime-context.tsx';
import { useCan } from '../../../runtime/permissions/permissions-context.tsx';
import { refId } from '../../../runtime/crud/prepare-record.ts';
import { REACTION_EMOJI } from '../../chat/reactions.ts';
import type { Reaction } from '../../generated/types.ts';

export interface TranscriptChat {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  createdAt?: string;
  reaction?: Reaction | null;
}

export interface TranscriptTrace {
  _id: string;
  chatId?: string;
  status?: { _id?: string; name?: string } | string | null;
  knowledgeBase?: { source?: string; hash?: string; content?: string }[];
  latency?: number | null;
}

/** The most traces one transcript asks for: a conversation longer than this shows the rest without fragments. */
export const TRANSCRIPT_TRACE_LIMIT = 1000;

/**
 * A conversation read as what happened (docs/product-rules.md#entities Conversation is view-only in the console): the
 * visitor's and the bot's messages as bubbles with their time and reaction, and under each answer
 * the fragments it was given, its status and a link to its trace; the contact links to its record.
 * Fetches the conversation (names of contact and bot) and its traces when the role may read them.
 */
export function ConversationTranscript(props: EntityFormProps) {
  const { t } = useTranslation();
  const can = useCan();
  const services = useRuntime();
  const id = refId(props.initialData._id) ?? '';
  const conversations = requireEntityClient(services, 'conversation');
  const traceModel = services.entities.bottrace;
  const contactModel = services.entities.contact;
  const mayReadTraces = Boolean(traceModel && mayDo(can, traceModel.permissions, 'view'));
  const mayReadContacts = Boolean(contactModel && mayDo(can, contactModel.permissions, 'view'));

  const conversation = useQuery({
    queryKey: ['conversation', 'transcript', id],
    queryFn: ({ signal }) => conversations.findById({ id, signal }) as Promise<Record<string, unknown>>,
    enabled: id !== '',
  });
  const traces = useQuery({
    queryKey: ['bottrace', 'transcript', id],
    queryFn: ({ signal }) =>
      requireEntityClient(services, 'bottrace').find({
        filters: [{ field: 'conversation', operator: 'eq', value: id }],
        limit: TRANSCRIPT_TRACE_LIMIT,
        signal,
      }) as unknown as Promise<TranscriptTrace[]>,
    enabled: id !== '' && mayReadTraces,
  });

  const record = conversation.data ?? props.initialData;
  const chats = (Array.isArray(record.chats) ? record.chats : []) as TranscriptChat[];
  const tracesByChat = new Map((traces.data ?? []).map((trace) => [String(trace.chatId ?? ''), trace]));
  const contactId = refId(record.contact);
  const contactName = displayOf(record.contact) ?? contactId ?? '—';
  const botName = displayOf(record.bot) ?? refId(record.bot) ?? '—';

  return (
    <Stack gap="sm" data-testid="conversation-transcript">
      <Group gap="lg">
        <Text size="sm">
          {t('transcript.contact')}:{' '}
          {contactId && mayReadContacts ? (
            <Anchor component={Link} to={`/crud/contact?view=${encodeURIComponent(contactId)}`} data-testid="transcript-contact-link">
              {contactName}
            </Anchor>
          ) : (
            <Text span fw={500}>
              {contactName}
            </Text>
          )}
        </Text>
        <Text size="sm">
          {t('transcript.bot')}:{' '}
          <Text span fw={500}>
            {botName}
          </Text>
        </Text>
      </Group>
      {conversation.isError && (
        <Alert color="yellow" role="status">
          {t('transcript.stale')}
        </Alert>
      )}
      {chats.length === 0 ? (
        <Text size="sm" c="dimmed">
          {conversation.isLoading ? <Loader size="xs" /> : t('transcript.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('transcript.messages')}>
          {chats.map((chat) => (
            <TranscriptBubble key={chat.id} chat={chat} trace={tracesByChat.get(chat.id) ?? null} tracesLoading={traces.isLoading && mayReadTraces} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function TranscriptBubble({ chat, trace, tracesLoading }: { chat: TranscriptChat; trace: TranscriptTrace | null; tracesLoading: boolean }) {
  const { t, i18n } = useTranslation();
  const visitor = chat.role === 'user';
  const time = chat.createdAt ? formatTime(chat.createdAt, i18n.language) : null;
  const status = statusName(trace?.status);
  const fragments = trace?.knowledgeBase ?? [];
  const [showFragments, setShowFragments] = useState(false);
  return (
    <Group component="li" justify={visitor ? 'flex-end' : 'flex-start'} wrap="nowrap" data-testid={`transcript-${chat.role}`} data-chat-id={chat.id}>
      <Paper
        px="sm"
        py={6}
        radius="lg"
        maw="85%"
        withBorder={!visitor}
        bg={visitor ? 'var(--mantine-primary-color-filled)' : undefined}
        c={visitor ? 'var(--mantine-primary-color-contrast)' : undefined}
      >
        <Text size="xs" fw={600}>
          {t(visitor ? 'transcript.visitor' : 'transcript.assistant')}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="transcript-text">
          {chat.message}
        </Text>
        <Group gap={6} justify="flex-end" mt={2} wrap="wrap">
          {status && (
            <Badge size="sm" variant="light" color={status === 'ok' ? 'teal' : status === 'error' ? 'red' : 'orange'} data-testid="transcript-status">
              {t(`transcript.status.${status}`, { defaultValue: status })}
            </Badge>
          )}
          {chat.reaction && (
            <Text size="sm" data-testid="transcript-reaction">
              <span aria-hidden="true">{REACTION_EMOJI[chat.reaction] ?? ''} </span>
              {t(`enum.Reaction.${chat.reaction}`)}
            </Text>
          )}
          {time && (
            <Text size="xs" component="time" dateTime={chat.createdAt}>
              {time}
            </Text>
          )}
        </Group>
        {!visitor && trace && (
          <Stack gap={4} mt={6}>
            {fragments.length === 0 ? (
              <Text size="xs">{t('chat.trace.noFragments')}</Text>
            ) : (
              <>
                <Button variant="subtle" size="compact-xs" onClick={() => setShowFragments((shown) => !shown)} aria-expanded={showFragments} style={{ alignSelf: 'flex-start' }}>
                  {showFragments ? t('transcript.hideFragments') : t('transcript.fragments', { count: fragments.length })}
                </Button>
                {showFragments && (
                  <Stack gap={4} data-testid="transcript-fragments">
                    {fragments.map((fragment, index) => (
                      <Paper key={`${fragment.hash ?? ''}-${index}`} withBorder p={6} radius="sm">
                        <Text size="xs" fw={600}>
                          #{index + 1} · {fragment.source || '—'} {fragment.hash && <Code>{fragment.hash.slice(0, 8)}</Code>}
                        </Text>
                        <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                          {fragment.content}
                        </Text>
                      </Paper>
                    ))}
                  </Stack>
                )}
              </>
            )}
            <Anchor component={Link} size="xs" to={`/crud/bottrace?view=${encodeURIComponent(trace._id)}`} data-testid="transcript-trace-link">
              {t('transcript.openTrace')}
              {typeof trace.latency === 'number' && ` · ${t('chat.trace.latency', { seconds: (trace.latency / 1000).toFixed(2) })}`}
            </Anchor>
          </Stack>
        )}
        {!visitor && !trace && tracesLoading && <Loader size="xs" mt={4} />}
      </Paper>
    </Group>
  );
}

function displayOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const name = (value as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : null;
}

function statusName(status: TranscriptTrace['status']): string | null {
  if (!status) return null;
  if (typeof status === 'string') return null;
  return typeof status.name === 'string' ? status.name : null;
}

function formatTime(iso: string, language: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(language, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
}
