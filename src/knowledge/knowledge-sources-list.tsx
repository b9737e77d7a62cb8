import { Anchor, Badge, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClock, IconFileText, IconLink, IconPencil, IconPuzzle, IconTextCaption } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate } from '../../runtime/table/format-cell.ts';
import { sourceState, type SourceState, type SourceSummary } from './source-state.ts';

const TYPE_ICONS: Record<string, typeof IconFileText> = { text: IconTextCaption, file: IconFileText, link: IconLink, chunk: IconPuzzle };

/** One source in the generic page's edit dialog (runtime/crud/linked-record.ts): view only for who may not edit. */
export function sourceEditorHref(id: string): string {
  return `/crud/knowledgesource?edit=${encodeURIComponent(id)}`;
}

/**
 * The sources of a knowledge base, each with its state (pending, indexed with N fragments, or a
 * problem and its reason) and a link that opens that source in the detailed editor.
 */
export function KnowledgeSourcesList({ knowledge, sources }: { knowledge: Record<string, unknown>; sources: readonly SourceSummary[] }) {
  const { t } = useTranslation();
  if (sources.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="knowledge-sources-empty">
        {t('knowledge.page.noSources')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="knowledge-sources">
      {sources.map((source) => {
        const Icon = TYPE_ICONS[source.type ?? ''] ?? IconFileText;
        const state = sourceState(knowledge, source);
        return (
          <Paper key={source._id} withBorder p="xs" data-testid="knowledge-source" data-state={state.kind}>
            <Group gap="sm" wrap="nowrap">
              <Icon size={18} aria-hidden />
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={500} truncate title={source.name}>
                  {source.name}
                </Text>
                {source.updatedAt && (
                  <Text size="xs" c="dimmed">
                    {t('knowledge.page.updated', { time: formatDate(source.updatedAt) })}
                  </Text>
                )}
              </Stack>
              <SourceStateBadge state={state} />
              <Anchor
                component={Link}
                to={sourceEditorHref(source._id)}
                size="sm"
                aria-label={t('knowledge.page.editSource', { name: source.name })}
                data-testid="knowledge-source-editor"
              >
                <Group gap={4} wrap="nowrap">
                  <IconPencil size={14} aria-hidden />
                  {t('knowledge.page.editSourceShort')}
                </Group>
              </Anchor>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}

export function SourceStateBadge({ state }: { state: SourceState }) {
  const { t } = useTranslation();
  if (state.kind === 'indexed') {
    const label = state.chunks === null ? t('knowledge.sourceState.indexedUnknown') : t('knowledge.sourceState.indexed', { count: state.chunks });
    return <Badge color="green" variant="light" tt="none" leftSection={<IconCircleCheck size={12} />} data-testid="source-state">{label}</Badge>;
  }
  if (state.kind === 'problem') {
    const reason = t(state.reason || 'error.unknown');
    return (
      <Tooltip label={state.message && state.message !== reason ? `${reason} (${state.message})` : reason} multiline maw={360}>
        <Badge color="red" variant="light" tt="none" leftSection={<IconAlertTriangle size={12} />} data-testid="source-state" aria-label={`${t('knowledge.sourceState.problem')}: ${reason}`}>
          {t('knowledge.sourceState.problem')}: {reason}
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Badge color="gray" variant="light" tt="none" leftSection={<IconClock size={12} />} data-testid="source-state">
      {t(`knowledge.sourceState.pending.${state.why}`)}
    </Badge>
  );
}
