import { useMemo } from 'react';
import { Badge, Code, Divider, Group, Paper, ScrollArea, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EntityForm, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { withoutFields } from '../without-fields.ts';

interface Fragment {
  source?: string;
  hash?: string;
  content?: string;
}

/**
 * The trace dialog. Viewing a trace shows the generic read-only form for its fields except the
 * retrieved knowledge, which reads badly as a form list; it follows as numbered fragments (source,
 * short hash, full text). Create and edit keep the generic form.
 */
export function BotTraceForm(props: EntityFormProps) {
  const view = props.operation === 'view';
  const schemas = useMemo(() => (view ? withoutFields(props.schemas, ['knowledgeBase']) : props.schemas), [view, props.schemas]);
  if (!view) return <EntityForm {...props} />;
  const fragments = Array.isArray(props.initialData.knowledgeBase) ? (props.initialData.knowledgeBase as Fragment[]) : [];
  const latency = typeof props.initialData.latency === 'number' ? props.initialData.latency : null;
  return (
    <Stack>
      <EntityForm {...props} schemas={schemas} />
      <TraceFragments fragments={fragments} query={String(props.initialData.knowledgeBaseQuery ?? '')} latency={latency} />
    </Stack>
  );
}

function TraceFragments({ fragments, query, latency }: { fragments: Fragment[]; query: string; latency: number | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="trace-fragments">
      <Divider />
      <Group justify="space-between">
        <Title order={3} size="h5">
          {t('field.bottrace.knowledgeBase')} <Badge variant="light">{fragments.length}</Badge>
        </Title>
        {latency !== null && <Text size="sm" c="dimmed">{t('chat.trace.latency', { seconds: (latency / 1000).toFixed(2) })}</Text>}
      </Group>
      {query && (
        <Text size="sm">
          {t('field.bottrace.knowledgeBaseQuery')}: <Code>{query}</Code>
        </Text>
      )}
      {fragments.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('chat.trace.noFragments')}
        </Text>
      )}
      <ScrollArea.Autosize mah={480} type="auto">
        <Stack gap="xs">
          {fragments.map((fragment, index) => (
            <Paper key={`${fragment.hash ?? ''}-${index}`} withBorder p="sm" radius="sm" data-testid="trace-fragment">
              <Group justify="space-between" mb={4} wrap="nowrap">
                <Text size="sm" fw={600} lineClamp={1}>
                  #{index + 1} · {fragment.source || '—'}
                </Text>
                {fragment.hash && (
                  <Code title={fragment.hash} style={{ flexShrink: 0 }}>
                    {fragment.hash.slice(0, 12)}
                  </Code>
                )}
              </Group>
              <Spoiler maxHeight={96} showLabel={t('chat.trace.more')} hideLabel={t('chat.trace.less')}>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {fragment.content}
                </Text>
              </Spoiler>
            </Paper>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}

/** The form schemas without one top-level field (schema property, required entry and UI order). */
