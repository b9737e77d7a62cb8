import { useState, type FormEvent } from 'react';
import { Accordion, Alert, Badge, Button, Code, Group, Paper, ScrollArea, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PreviewAnswer, PreviewTurn } from '../../../contract/chat/preview-answer.ts';
import { restApi } from '../../session/api-client.ts';
import { chatFailureKey } from '../chat-api.ts';
import { MarkdownMessage } from '../markdown-message.tsx';

/** The bot form's current values the preview tries unsaved (the server accepts these only). */
export interface PreviewDraft {
  systemPrompt?: string;
  systemPromptWithKnowledge?: string;
  fallbackMessage?: string;
  knowledge?: string | null;
}

/** What the form holds, as the preview's draft: refs as ids, other fields only when they are text. */
export function previewDraft(data: Record<string, unknown>): PreviewDraft {
  const draft: PreviewDraft = {};
  for (const field of ['systemPrompt', 'systemPromptWithKnowledge', 'fallbackMessage'] as const) {
    const value = data[field];
    if (typeof value === 'string' && (field === 'fallbackMessage' || value.trim() !== '')) draft[field] = value;
  }
  const knowledge = data.knowledge;
  if (typeof knowledge === 'string') draft.knowledge = knowledge || null;
  else if (knowledge && typeof knowledge === 'object' && typeof (knowledge as { _id?: unknown })._id === 'string') draft.knowledge = (knowledge as { _id: string })._id;
  else if (knowledge === null || knowledge === undefined) draft.knowledge = null;
  return draft;
}

/** As the server bounds it (server/chat/chat-preview-validation.ts). */
const MAX_TURNS = 20;

interface Exchange {
  question: string;
  result: PreviewAnswer;
}

/**
 * The administrator's preview chat beside the bot form (issue 28 item 4, as Dify's debug panel):
 * asks as a visitor would through POST /api/chat/preview/:botId and shows the answer with the
 * fragments found and their scores, the prompt sent, tokens and latency. Nothing is saved and
 * nothing counts in analytics; the form's unsaved prompts are used, so a change can be tried first.
 */
export function BotPreviewPanel({ botId, draft }: { botId: string; draft: PreviewDraft }) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState('');
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const ask = useMutation({
    mutationFn: (message: string) => {
      const history: PreviewTurn[] = exchanges.flatMap((e) => [
        { role: 'user' as const, message: e.question },
        { role: 'assistant' as const, message: e.result.answer },
      ]);
      return restApi.call<PreviewAnswer>({
        method: 'POST',
        path: `/api/chat/preview/${encodeURIComponent(botId)}`,
        json: { message, history: history.slice(-MAX_TURNS), draft },
        timeout: 120_000,
      });
    },
    onSuccess: (result, message) => {
      setExchanges((list) => [...list, { question: message, result }]);
      setQuestion('');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = question.trim();
    if (message && !ask.isPending) ask.mutate(message);
  };

  return (
    <Paper withBorder p="sm" radius="md" data-testid="bot-preview">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5">
            {t('chat.preview.title')}
          </Title>
          {exchanges.length > 0 && (
            <Button variant="subtle" size="compact-xs" onClick={() => setExchanges([])} data-testid="bot-preview-reset">
              {t('chat.preview.reset')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('chat.preview.hint')}
        </Text>
        <ScrollArea.Autosize mah={520} type="auto" offsetScrollbars>
          <Stack gap="sm">
            {exchanges.map((exchange, index) => (
              <PreviewExchange key={index} exchange={exchange} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {ask.isError && (
          <Alert color="red" variant="light" data-testid="bot-preview-error">
            {t(chatFailureKey(ask.error))}
          </Alert>
        )}
        <form onSubmit={submit}>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <Textarea
              style={{ flex: 1 }}
              rows={2}
              maxLength={4000}
              aria-label={t('chat.preview.placeholder')}
              placeholder={t('chat.preview.placeholder')}
              value={question}
              onChange={(event) => setQuestion(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) submit(event);
              }}
              data-testid="bot-preview-input"
            />
            <Button type="submit" loading={ask.isPending} disabled={question.trim() === ''} data-testid="bot-preview-send">
              {t('chat.preview.ask')}
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}

const STATUS_COLOR: Record<PreviewAnswer['status'], string> = { ok: 'green', no_answer: 'orange', error: 'red' };

function PreviewExchange({ exchange }: { exchange: Exchange }) {
  const { t } = useTranslation();
  const { result } = exchange;
  return (
    <Stack gap={4} data-testid="bot-preview-exchange">
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {exchange.question}
      </Text>
      <Paper bg="var(--mantine-color-default-hover)" p="xs" radius="sm" data-testid="bot-preview-answer">
        <MarkdownMessage text={result.answer} />
      </Paper>
      <Group gap={6} data-testid="bot-preview-metrics">
        <Badge color={STATUS_COLOR[result.status]} variant="light" data-testid="bot-preview-status">
          {t(`chat.preview.status.${result.status}`)}
        </Badge>
        <Badge variant="outline" color="gray">
          {t('chat.preview.latency', { seconds: (result.latencyMs / 1000).toFixed(2) })}
        </Badge>
        <Badge variant="outline" color="gray">
          {t('chat.preview.tokens', { input: result.inputTokens, output: result.outputTokens, total: result.tokens })}
        </Badge>
        <Badge variant="outline" color="gray" tt="none">
          {result.provider} · {result.model}
        </Badge>
      </Group>
      {result.error && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="bot-preview-failure">
          {result.error.code}: {result.error.message}
        </Text>
      )}
      <Accordion variant="contained" multiple chevronPosition="left">
        <Accordion.Item value="fragments">
          <Accordion.Control>{t('chat.preview.fragments', { count: result.fragments.length })}</Accordion.Control>
          <Accordion.Panel>
            {result.fragments.length === 0 ? (
              <Text size="xs">{t('chat.preview.noFragments')}</Text>
            ) : (
              <Stack gap={6}>
                {result.fragments.map((fragment) => (
                  <Stack key={fragment.hash} gap={2} data-testid="bot-preview-fragment">
                    <Group gap={6}>
                      <Badge size="sm" variant="light" data-testid="bot-preview-score">
                        {fragment.score.toFixed(3)}
                      </Badge>
                      <Text size="xs" fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {fragment.source}
                      </Text>
                      {fragment.used && (
                        <Badge size="sm" color="teal" variant="outline">
                          {t('chat.preview.used')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
                      {fragment.content}
                    </Text>
                  </Stack>
                ))}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="prompt">
          <Accordion.Control>{t('chat.preview.prompt')}</Accordion.Control>
          <Accordion.Panel>
            {result.prompt === null ? (
              <Text size="xs">{t('chat.preview.noPrompt')}</Text>
            ) : (
              <Stack gap={6} data-testid="bot-preview-prompt">
                {result.prompt.map((message, index) => (
                  <Stack key={index} gap={2}>
                    <Text size="xs" fw={600}>
                      {message.role}
                    </Text>
                    <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 240, overflow: 'auto' }}>
                      {message.content}
                    </Code>
                  </Stack>
                ))}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}
