import { ActionIcon, Badge, Group, Paper, Progress, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerStop } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { entities } from '../generated/entities.ts';
import { failureMessage } from '../knowledge/training-outcome.ts';
import { ACTIVE_JOB_STATES, jobsApi, type JobState, type JobView } from './jobs-api.ts';

/** Polled quickly while something runs, slowly otherwise. */
const ACTIVE_POLL_MS = 1000;
const IDLE_POLL_MS = 10_000;

const STATE_COLORS: Record<JobState, string> = { queued: 'gray', running: 'blue', done: 'green', failed: 'red', cancelled: 'orange' };

/**
 * The caller's recent jobs (GET /api/jobs): what, its state, a progress bar (done of total, or
 * rows so far when the total is not known), and a cancel button while it is queued or running.
 */
export function JobsPanel({ limit = 20 }: { limit?: number }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const jobs = useQuery({
    queryKey: ['jobs', limit],
    queryFn: ({ signal }) => jobsApi.list(limit, signal),
    refetchInterval: (query) => (query.state.data?.items.some((job) => ACTIVE_JOB_STATES.includes(job.state)) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => jobsApi.cancel(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['jobs'] }),
    onError: (error) => notifications.show({ color: 'red', message: failureMessage(error, t) }),
  });
  const items = jobs.data?.items ?? [];

  return (
    <Paper withBorder p="md" aria-label={t('jobs.title')} data-testid="jobs-panel">
      <Stack gap="xs">
        <Title order={2} size="h3">{t('jobs.title')}</Title>
        <Text size="sm" c="dimmed">{t('jobs.intro')}</Text>
        {jobs.isError && <Text c="red" size="sm">{failureMessage(jobs.error, t)}</Text>}
        {jobs.isSuccess && items.length === 0 && <Text size="sm">{t('jobs.empty')}</Text>}
        {items.length > 0 && (
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('jobs.column.job')}</Table.Th>
                <Table.Th>{t('jobs.column.state')}</Table.Th>
                <Table.Th w="35%">{t('jobs.column.progress')}</Table.Th>
                <Table.Th>{t('jobs.column.created')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('crud.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((job) => {
                const title = jobTitle(job, t);
                const active = ACTIVE_JOB_STATES.includes(job.state);
                return (
                  <Table.Tr key={job.id} data-testid={`job-${job.kind}`} data-state={job.state}>
                    <Table.Td>
                      <Text size="sm" fw={500}>{title}</Text>
                      {job.attempts > 1 && <Text size="xs" c="dimmed">{t('jobs.attempt', { attempt: job.attempts, max: job.maxAttempts })}</Text>}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATE_COLORS[job.state]} variant="light">{t(`jobs.state.${job.state}`)}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <JobProgress job={job} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{new Date(job.createdAt).toLocaleString(i18n.language)}</Text>
                    </Table.Td>
                    <Table.Td>
                      {active && (
                        <Tooltip label={job.cancelRequested ? t('jobs.cancelRequested') : t('jobs.cancel')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('jobs.cancelAria', { job: title })}
                            disabled={job.cancelRequested || cancel.isPending}
                            onClick={() => cancel.mutate(job.id)}
                            data-testid="job-cancel"
                          >
                            <IconPlayerStop size={18} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

/** A bar for done of total; striped and moving while the total is unknown; the error once failed. */
export function JobProgress({ job }: { job: JobView }) {
  const { t } = useTranslation();
  if (job.state === 'failed' || (job.state === 'cancelled' && job.error)) {
    return <Text size="xs" c={job.state === 'failed' ? 'red' : 'dimmed'}>{job.error?.i18nMessage ? t(job.error.i18nMessage) : job.error?.message}</Text>;
  }
  const { done, total, phase } = job.progress;
  const known = total > 0;
  const value = job.state === 'done' ? 100 : known ? Math.min(100, Math.round((100 * done) / total)) : 100;
  const moving = job.state === 'running' || job.state === 'queued';
  const label = [phase && moving ? t(`jobs.phase.${phase}`, { defaultValue: phase }) : null, known ? t('jobs.ofTotal', { done, total }) : done > 0 ? t('jobs.rows', { done }) : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack gap={2}>
      <Progress
        value={value}
        striped={moving && !known}
        animated={moving && !known}
        color={job.state === 'cancelled' ? 'gray' : job.state === 'done' ? 'green' : 'blue'}
        aria-label={label || t(`jobs.state.${job.state}`)}
        data-testid="job-progress"
      />
      {label && <Text size="xs" c="dimmed">{label}</Text>}
    </Stack>
  );
}

function jobTitle(job: JobView, t: TFunction): string {
  const kind = t(`jobs.kind.${job.kind}`, { defaultValue: job.kind });
  const entity = job.subject?.entity ? entities[job.subject.entity as keyof typeof entities] : undefined;
  const what = [entity && job.kind !== 'train' ? t(entity.labelPlural) : null, job.subject?.label || null].filter(Boolean).join(' · ');
  return what ? `${kind} · ${what}` : kind;
}
