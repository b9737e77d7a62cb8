import { useState } from 'react';
import { ActionIcon, Anchor, Box, Collapse, Group, Paper, Popover, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconMoodPlus } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { Reaction } from '../generated/types.ts';
import type { ChatCitation, ChatMessage } from './chat-types.ts';
import { MarkdownMessage } from './markdown-message.tsx';
import { PICKER_REACTIONS, REACTION_EMOJI } from './reactions.ts';

/**
 * One message: the visitor's on the right, the bot's on the left with its reaction picker. The
 * text is rendered as text (React escapes it; line breaks kept by CSS): never as HTML.
 */
export function MessageBubble({ chat, onReact, testId }: { chat: ChatMessage; onReact?: (reaction: Reaction | null) => void; testId?: string }) {
  const mine = chat.role === 'user';
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'} wrap="nowrap" data-testid={testId ?? `chat-message-${chat.role}`} data-chat-id={chat.id}>
      <Paper
        px="sm"
        py={6}
        radius="lg"
        maw="85%"
        bg={mine ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-hover)'}
        c={mine ? 'var(--mantine-primary-color-contrast)' : undefined}
      >
        {mine ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="chat-message-text">
            {chat.message}
          </Text>
        ) : (
          <Box data-testid="chat-message-text" style={{ overflowWrap: 'anywhere' }}>
            <MarkdownMessage text={chat.message} />
          </Box>
        )}
        {chat.citations && chat.citations.length > 0 && <Citations citations={chat.citations} />}
        <Group gap={6} justify="flex-end" mt={2}>
          {onReact && <ReactionPicker value={chat.reaction ?? null} onChange={onReact} />}
          {/* Full opacity: at 0.7 the time read at 3.3:1 on the blue bubble (AA asks 4.5:1). */}
          <Text size="xs" component="time" dateTime={chat.createdAt}>
            {dayjs(chat.createdAt).format('HH:mm')}
          </Text>
        </Group>
      </Paper>
    </Group>
  );
}

/** The answer's sources, folded: source name, fragment id and excerpt (server/chat/cite-sources.ts). */
function Citations({ citations }: { citations: ChatCitation[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Box mt={4} data-testid="chat-citations">
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} fz="xs" c="dimmed" td="underline">
        {t('chat.sources', { count: citations.length })}
      </UnstyledButton>
      <Collapse expanded={open}>
        <Stack gap={4} mt={4}>
          {citations.map((citation) => (
            <Box key={citation.fragmentId} data-testid="chat-citation" pl={6} style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
              <Text size="xs" fw={600} style={{ overflowWrap: 'anywhere' }}>
                <CitationSource source={citation.source} />{' '}
                <Text span size="xs" c="dimmed" fw={400}>
                  {t('chat.fragment', { id: citation.fragmentId.slice(0, 8) })}
                </Text>
              </Text>
              <Text size="xs" c="dimmed">
                {citation.excerpt}
              </Text>
            </Box>
          ))}
        </Stack>
      </Collapse>
    </Box>
  );
}

/**
 * A link source (its URL) opens the page in a new tab; only http(s) addresses are links (a
 * `javascript:` or `data:` "source" stays text), and the page gets neither the opener nor the referrer.
 */
export function citationHref(source: string): string | null {
  if (!/^https?:\/\//i.test(source)) return null;
  try {
    const url = new URL(source);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function CitationSource({ source }: { source: string }) {
  const href = citationHref(source);
  if (!href) return <>{source}</>;
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="xs" fw={600} data-testid="chat-citation-link">
      {source}
    </Anchor>
  );
}

/** The seven reactions of docs/product-rules.md#entities as emoji; choosing the current one again clears it. */
function ReactionPicker({ value, onChange }: { value: Reaction | null; onChange: (reaction: Reaction | null) => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="top" withArrow shadow="md">
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="sm"
          radius="xl"
          onClick={() => setOpened((o) => !o)}
          aria-label={value ? t(`enum.Reaction.${value}`) : t('chat.react')}
          title={value ? t(`enum.Reaction.${value}`) : t('chat.react')}
          data-testid="chat-reaction-toggle"
          data-reaction={value ?? ''}
        >
          {value ? <span style={{ fontSize: 14 }}>{REACTION_EMOJI[value]}</span> : <IconMoodPlus size={16} />}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={4}>
        <Group gap={2} wrap="nowrap">
          {PICKER_REACTIONS.map((reaction) => (
            <Tooltip key={reaction} label={t(`enum.Reaction.${reaction}`)} withinPortal>
              <ActionIcon
                variant={reaction === value ? 'light' : 'subtle'}
                size="lg"
                aria-label={t(`enum.Reaction.${reaction}`)}
                aria-pressed={reaction === value}
                onClick={() => {
                  setOpened(false);
                  onChange(reaction === value ? null : reaction);
                }}
              >
                <span style={{ fontSize: 20 }}>{REACTION_EMOJI[reaction]}</span>
              </ActionIcon>
            </Tooltip>
          ))}
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Three pulsing dots while the bot prepares its answer. */
export function TypingBubble() {
  const { t } = useTranslation();
  return (
    <Group justify="flex-start" data-testid="chat-typing">
      <Paper px="sm" py={8} radius="lg" bg="var(--mantine-color-default-hover)" aria-label={t('chat.typing')} title={t('chat.typing')}>
        <Group gap={4}>
          {[0, 1, 2].map((i) => (
            <Box
              key={i}
              w={6}
              h={6}
              style={{ borderRadius: '50%', background: 'currentColor', opacity: 0.6, animation: `forja-typing 1s ${i * 0.15}s infinite ease-in-out` }}
            />
          ))}
        </Group>
        <style>{'@keyframes forja-typing { 0%, 80%, 100% { transform: scale(0.6); opacity: .4 } 40% { transform: scale(1); opacity: 1 } }'}</style>
      </Paper>
    </Group>
  );
}
