import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Anchor, Button, Divider, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconPlus, IconSchool } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useEntityClient, useRuntime } from '../../runtime/context/runtime-context.tsx';
import { useCan } from '../../runtime/permissions/permissions-context.tsx';
import { mayDo } from '../../contract/permissions/entity-access.ts';
import { TrainingStateCell } from '../overrides/knowledge/training-state-cell.tsx';
import { AddContentDialog } from './add-content/add-content-dialog.tsx';
import type { AddContentDeps } from './add-content/use-add-content.ts';
import { KnowledgeSearchPanel } from './knowledge-search-panel.tsx';
import { KnowledgeSourcesList } from './knowledge-sources-list.tsx';
import { ragApi } from './rag-api.ts';
import { needsRetraining, refIds, type SourceSummary } from './source-state.ts';
import { failureMessage } from './training-outcome.ts';
import { useTrainingProgress } from './use-training-progress.ts';


/**
 * A knowledge base's own page (/knowledge/:id): its training state, its sources each with theirs,
 * a "needs retraining" notice when a source changed after the last training, "Add content" (text,
 * files, links in one flow; /knowledge/:id?add&text=... opens it prefilled), training with progress,
 * and the search of docs/product-rules.md#screens.
 */
export default function KnowledgePage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t } = useTranslation();
  const can = useCan();
  const services = useRuntime();
  const knowledgeClient = useEntityClient('knowledge');
  const sourceClient = useEntityClient('knowledgesource');
  const queryClient = useQueryClient();
  const knowledgeModel = services.entities.knowledge;
  const sourceModel = services.entities.knowledgesource;
  const canViewSources = !!sourceModel && mayDo(can, sourceModel.permissions, 'view');
  const canUpdate = !!knowledgeModel && mayDo(can, knowledgeModel.permissions, 'update');
  const canAdd = canUpdate && !!sourceModel && mayDo(can, sourceModel.permissions, 'create');

  const knowledge = useQuery({ queryKey: ['knowledge', 'record', id], queryFn: ({ signal }) => knowledgeClient.findById({ id, signal }), enabled: id !== '' });
  const record = (knowledge.data ?? null) as Record<string, unknown> | null;
  const sourceIds = useMemo(() => refIds(record?.sources), [record]);
  const sources = useQuery({
    queryKey: ['knowledge', 'sources', id, sourceIds],
    queryFn: ({ signal }) => (sourceIds.length ? sourceClient.findByIds({ ids: sourceIds, signal }) : Promise.resolve([])),
    enabled: record !== null && canViewSources,
  });
  const sourceList = useMemo(() => {
    // In the base's order; a source that is gone is left out (training reports it).
    const byId = new Map(((sources.data ?? []) as unknown as SourceSummary[]).map((source) => [String(source._id), source]));
    return sourceIds.map((sourceId) => byId.get(sourceId)).filter((source): source is SourceSummary => !!source);
  }, [sources.data, sourceIds]);

  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['knowledge'] });
  }, [queryClient]);

  // ?add opens "Add content" at once, ?text=... prefilled (e.g. an unanswered question to answer).
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(() => params.has('add'));
  const [initialText] = useState(() => params.get('text') ?? '');
  const closeAdding = useCallback(() => {
    setAdding(false);
    if (params.has('add') || params.has('text')) setParams({}, { replace: true });
  }, [params, setParams]);
  const training = useTraining(id, reload);
  const stale = record !== null && canViewSources && sources.isSuccess && needsRetraining(record, sourceList);

  const deps = useMemo<AddContentDeps>(
    () => ({
      upload: (file) => services.uploader.uploadFile({ file }),
      parseFile: ragApi.parseFile,
      parseUrl: ragApi.parseUrl,
      chunk: ragApi.chunk,
      createSource: (data) => sourceClient.create({ data }) as Promise<{ _id?: unknown }>,
      linkSources: async (ids) => {
        // Read the base again: its sources may have changed since the page loaded.
        const current = (await knowledgeClient.findById({ id })) as Record<string, unknown>;
        const kept = refIds(current.sources);
        await knowledgeClient.update({ id, data: { sources: [...kept, ...ids.filter((added) => !kept.includes(added))] } });
      },
      train: () => ragApi.train(id),
      status: (signal) => ragApi.status(id, signal),
    }),
    [services.uploader, sourceClient, knowledgeClient, id],
  );

  const name = typeof record?.name === 'string' ? record.name : '';
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/crud/knowledge" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('knowledge.search.back')}
        </Group>
      </Anchor>
      {knowledge.error && (
        <Alert color="red" role="alert">
          {t(knowledge.error.message)}
        </Alert>
      )}
      {record && (
        <>
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Title order={2}>{name}</Title>
              <TrainingStateCell row={record} value={record.trainingState} />
            </Stack>
            <Group gap="xs">
              {canUpdate && (
                <Button variant="default" leftSection={<IconSchool size={16} />} onClick={() => void training.start()} loading={training.running} data-testid="knowledge-page-train">
                  {t('knowledge.page.train')}
                </Button>
              )}
              {canAdd && (
                <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={training.running} data-testid="knowledge-add-content">
                  {t('knowledge.add.open')}
                </Button>
              )}
            </Group>
          </Group>
          {training.running && (
            <Stack gap={4}>
              <Progress value={training.percent} animated aria-label={training.label} />
              <Text size="xs" c="dimmed" aria-live="polite">
                {training.label}
              </Text>
            </Stack>
          )}
          {training.error && (
            <Alert color="red" role="alert" withCloseButton onClose={training.dismiss}>
              {training.error}
            </Alert>
          )}
          {stale && !training.running && (
            <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={t('knowledge.page.staleTitle')} data-testid="knowledge-needs-retraining">
              <Group justify="space-between" align="center">
                <Text size="sm">{t('knowledge.page.staleBody')}</Text>
                {canUpdate && (
                  <Button size="xs" color="yellow" variant="light" onClick={() => void training.start()}>
                    {t('knowledge.page.trainNow')}
                  </Button>
                )}
              </Group>
            </Alert>
          )}
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={3}>{t('knowledge.page.sources', { count: sourceIds.length })}</Title>
              {canViewSources && (
                <Anchor component={Link} to="/crud/knowledgesource" size="sm">
                  {t('knowledge.page.detailedEditor')}
                </Anchor>
              )}
            </Group>
            {canViewSources ? (
              <KnowledgeSourcesList knowledge={record} sources={sourceList} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('knowledge.page.sourcesHidden')}
              </Text>
            )}
          </Stack>
          <Divider />
          <KnowledgeSearchPanel id={id} />
          <AddContentDialog opened={adding && canAdd} knowledgeName={name} deps={deps} initialText={initialText} onClose={closeAdding} onTrained={reload} />
        </>
      )}
    </Stack>
  );
}

/** Trains the base from its page: a progress bar fed by the status route, then a reload. */
function useTraining(id: string, onFinished: () => void) {
  const { t } = useTranslation();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const pollStatus = useCallback((signal: AbortSignal) => ragApi.status(id, signal), [id]);
  const status = useTrainingProgress(running, pollStatus);
  const start = useCallback(async () => {
    setError(null);
    setRunning(true);
    try {
      await ragApi.train(id);
    } catch (failure) {
      console.error(failure);
      if (mounted.current) setError(failureMessage(failure, t));
    } finally {
      if (mounted.current) setRunning(false);
      onFinished();
    }
  }, [id, onFinished, t]);
  const percent = status && status.total > 0 ? Math.round((100 * status.done) / status.total) : 5;
  const label = status?.phase ? t(`knowledge.progress.${status.phase}`, { done: status.done, total: status.total }) : t('knowledge.progress.running');
  return { running, start, percent, label, error, dismiss: () => setError(null) };
}
