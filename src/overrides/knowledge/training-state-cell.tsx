import type { ReactElement } from 'react';
import { Badge, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleDashed, IconCircleX, IconRefreshAlert } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CellComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { entityQueryKeys } from '../../../runtime/query/entity-query-keys.ts';
import { formatDate } from '../../../runtime/table/format-cell.ts';
import { ragApi } from '../../knowledge/rag-api.ts';
import { problemText, trainingOutcome } from '../../knowledge/training-outcome.ts';

const TOOLTIP = { openDelay: 200, closeDelay: 150, multiline: true, maw: 420 } as const;
/** How often a base shown as training is asked whether it has finished. */
const TRAINING_WATCH_MS = 2000;

type IndexState = 'training' | 'notTrained' | 'needsRetraining' | 'trained';
const INDEX_STATES = new Set<unknown>(['training', 'notTrained', 'needsRetraining', 'trained']);

/** The server's indexState (server/rag/train/knowledge-index-state.ts); null from a server without it. */
function indexStateOf(row: Record<string, unknown>): IndexState | null {
  return INDEX_STATES.has(row.indexState) ? (row.indexState as IndexState) : null;
}

/**
 * The knowledge list's training column (and the base's page): where the index stands — training,
 * not trained, needs retraining (a source added, changed or removed since), trained — as a badge
 * with its words, then the last training's outcome when it has something to say (N problems,
 * orange, the reasons in a tooltip; failed, red, the message in a tooltip) and when it ran with how
 * many fragments. A failed training leaves the previous index live, so its time and fragments stay.
 */
export function TrainingStateCell({ row }: CellComponentProps) {
  const { t } = useTranslation();
  const outcome = trainingOutcome(row);
  const index = indexStateOf(row);
  useRefreshWhenTrained(String(row._id ?? ''), index === 'training');
  const summary = outcome.trainedAt
    ? t('knowledge.state.summary', { time: formatDate(outcome.trainedAt), count: outcome.chunks ?? 0 })
    : null;
  const badges: ReactElement[] = [];
  if (index === 'training') {
    badges.push(
      <Badge key="index" color="blue" variant="light" tt="none" leftSection={<Loader size={10} color="blue" />} data-testid="index-state">
        {t('enum.knowledge.indexState.training')}
      </Badge>,
    );
  } else if (index === 'needsRetraining') {
    badges.push(
      <Badge key="index" color="orange" variant="light" tt="none" leftSection={<IconRefreshAlert size={12} />} data-testid="index-state">
        {t('enum.knowledge.indexState.needsRetraining')}
      </Badge>,
    );
  }
  // "Trained" next to "needs retraining" or "training" would contradict it: only problems are added.
  if (outcome.state !== null && !(outcome.state === 'trained' && badges.length > 0)) badges.push(<OutcomeBadge key="outcome" outcome={outcome} />);
  if (badges.length === 0) {
    return (
      <Group gap={4} wrap="nowrap" data-testid="training-state" data-state="none" data-index-state={index ?? undefined}>
        <IconCircleDashed size={16} opacity={0.6} />
        <Text size="sm" c="dimmed">{t('knowledge.state.notTrained')}</Text>
      </Group>
    );
  }
  return (
    <Stack gap={2} align="flex-start" data-testid="training-state" data-state={outcome.state ?? 'none'} data-index-state={index ?? undefined}>
      <Group gap={4}>{badges}</Group>
      {summary && <Text size="xs" c="dimmed">{summary}</Text>}
    </Stack>
  );
}

/** The last training's outcome: trained, N problems (reasons in a tooltip) or failed (message in a tooltip). */
function OutcomeBadge({ outcome }: { outcome: ReturnType<typeof trainingOutcome> }) {
  const { t } = useTranslation();
  const reasons = outcome.problems.map((problem) => problemText(problem, t));
  const color = outcome.state === 'trained' ? 'green' : outcome.state === 'warning' ? 'orange' : 'red';
  const Icon = outcome.state === 'trained' ? IconCircleCheck : outcome.state === 'warning' ? IconAlertTriangle : IconCircleX;
  const label = outcome.state === 'warning'
    ? t('knowledge.state.problems', { count: outcome.problems.length })
    : t(`enum.knowledge.trainingState.${outcome.state}`);
  const badge = (
    <Badge color={color} variant="light" tt="none" leftSection={<Icon size={12} />} aria-label={[label, ...reasons].join('. ')}>
      {label}
    </Badge>
  );
  if (reasons.length === 0) return badge;
  return (
    <Tooltip
      {...TOOLTIP}
      label={
        <Stack gap={2}>
          {reasons.map((reason, index) => <Text key={index} size="xs">{reason}</Text>)}
        </Stack>
      }
    >
      {badge}
    </Tooltip>
  );
}

/**
 * A base read while it trained (started elsewhere, or by another user) shows "training" until it
 * is read again: its status is asked every 2 s, and when the training is over the knowledge lists
 * and pages are read again.
 */
function useRefreshWhenTrained(id: string, training: boolean): void {
  const client = useQueryClient();
  useQuery({
    queryKey: ['knowledge-training-watch', id],
    queryFn: async ({ signal }) => {
      const status = await ragApi.status(id, signal);
      if (status.state !== 'running') {
        await Promise.all([
          client.invalidateQueries({ queryKey: entityQueryKeys('knowledge').all }),
          client.invalidateQueries({ queryKey: ['knowledge'] }),
        ]);
      }
      return status.state;
    },
    enabled: training && id !== '',
    refetchInterval: TRAINING_WATCH_MS,
    refetchOnWindowFocus: false,
    retry: false,
    gcTime: 0,
  });
}
