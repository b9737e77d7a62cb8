import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleDashed, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CellComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { formatDate } from '../../../runtime/table/format-cell.ts';
import { problemText, trainingOutcome } from '../../knowledge/training-outcome.ts';

const TOOLTIP = { openDelay: 200, closeDelay: 150, multiline: true, maw: 420 } as const;

/**
 * The knowledge list's training column: not trained; trained at <time> with N fragments; with
 * problems (orange, the reasons in a tooltip); or failed (red, the message in a tooltip). A failed
 * training leaves the previous index live, so its time and fragments are still shown.
 */
export function TrainingStateCell({ row }: CellComponentProps) {
  const { t } = useTranslation();
  const outcome = trainingOutcome(row);
  if (outcome.state === null) {
    return (
      <Group gap={4} wrap="nowrap" data-testid="training-state" data-state="none">
        <IconCircleDashed size={16} opacity={0.6} />
        <Text size="sm" c="dimmed">{t('knowledge.state.notTrained')}</Text>
      </Group>
    );
  }
  const summary = outcome.trainedAt
    ? t('knowledge.state.summary', { time: formatDate(outcome.trainedAt), count: outcome.chunks ?? 0 })
    : null;
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
  return (
    <Stack gap={2} data-testid="training-state" data-state={outcome.state}>
      {reasons.length > 0 ? (
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
      ) : (
        badge
      )}
      {summary && <Text size="xs" c="dimmed">{summary}</Text>}
    </Stack>
  );
}
