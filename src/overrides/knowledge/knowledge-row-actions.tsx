import { useCallback, useEffect, useRef, useState } from 'react';
import { ActionIcon, Loader, RingProgress, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RowActionComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { ragApi, type RagTrainingResult, type RagTrainingStatus } from '../../knowledge/rag-api.ts';
import { failureMessage, problemText, trainingOutcome } from '../../knowledge/training-outcome.ts';
import { useTrainingProgress } from '../../knowledge/use-training-progress.ts';

const NOTIFICATION_MS = 3000;
const TOOLTIP = { openDelay: 300, closeDelay: 250 } as const;

type RunState = { kind: 'idle' } | { kind: 'running' } | { kind: 'failed'; message: string };
const IDLE_STATUS: RagTrainingStatus = { state: 'idle', phase: null, done: 0, total: 0, chunks: 0, trainedAt: null };

/**
 * A row action that runs a long knowledge operation: a spinner (or a progress ring fed by
 * `poll`) while it runs, then either back to its icon or, on failure, a red alert icon whose
 * tooltip holds the message (docs/product-rules.md#errors); clicking the alert tries again.
 */
function LongRowAction(props: RowActionComponentProps & {
  run: (id: string) => Promise<unknown>;
  poll?: (id: string, signal: AbortSignal) => Promise<RagTrainingStatus>;
  successKey: string;
  testId: string;
  /** A failure stored on the record (the last training failed, even before a restart). */
  storedFailure?: string | null;
  /** A finished run that still has something to say (a training with problems): shown instead of successKey. */
  warningOf?: (result: unknown) => string[] | null;
}) {
  const { row, reload, label, icon: Icon, run, poll, successKey, testId, storedFailure, warningOf } = props;
  const { t } = useTranslation();
  const id = String(row._id ?? '');
  const [state, setState] = useState<RunState>(storedFailure ? { kind: 'failed', message: storedFailure } : { kind: 'idle' });
  // The list reloads after every run: a failure stored on the record shows until a run here succeeds.
  const ran = useRef(false);
  useEffect(() => {
    if (!ran.current) setState((current) => (current.kind === 'running' ? current : storedFailure ? { kind: 'failed', message: storedFailure } : { kind: 'idle' }));
  }, [storedFailure]);
  const mounted = useRef(true);
  useEffect(() => {
    // Set again on (StrictMode) re-mount, not only initialised: otherwise results would be dropped.
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // While running, the server's progress (done of total chunks), when the action has one.
  const pollStatus = useCallback((signal: AbortSignal) => (poll ? poll(id, signal) : Promise.resolve(IDLE_STATUS)), [poll, id]);
  const progress = useTrainingProgress(state.kind === 'running' && poll !== undefined, pollStatus);

  const start = useCallback(async () => {
    ran.current = true;
    setState({ kind: 'running' });
    try {
      const result = await run(id);
      if (!mounted.current) return;
      setState({ kind: 'idle' });
      const warning = warningOf?.(result) ?? null;
      notifications.show(
        warning
          ? {
              title: t(successKey),
              message: <Stack gap={2} data-testid={`${testId}-warning`}>{warning.map((line, index) => <Text key={index} size="sm">{line}</Text>)}</Stack>,
              color: 'orange',
              autoClose: false,
              withCloseButton: true,
            }
          : { message: t(successKey), color: 'green', autoClose: NOTIFICATION_MS },
      );
      reload();
    } catch (error) {
      console.error(error);
      if (mounted.current) setState({ kind: 'failed', message: failureMessage(error, t) });
      // The failure is stored on the record: the list's training column shows it too.
      reload();
    }
  }, [run, id, t, successKey, reload, warningOf, testId]);

  if (state.kind === 'running') {
    const percent = progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : null;
    const text = progress?.phase
      ? t(`knowledge.progress.${progress.phase}`, { done: progress.done, total: progress.total })
      : t('knowledge.progress.running');
    return (
      <Tooltip label={text} {...TOOLTIP}>
        <ActionIcon variant="subtle" aria-label={text} aria-busy data-testid={`${testId}-running`}>
          {percent === null ? <Loader size={16} /> : <RingProgress size={26} thickness={3} roundCaps sections={[{ value: percent, color: 'blue' }]} />}
        </ActionIcon>
      </Tooltip>
    );
  }
  if (state.kind === 'failed') {
    return (
      <Tooltip label={state.message} multiline maw={360} {...TOOLTIP}>
        <ActionIcon variant="subtle" color="red" aria-label={state.message} onClick={() => void start()} data-testid={`${testId}-failed`}>
          <IconAlertTriangle size={18} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Tooltip label={label} {...TOOLTIP}>
      <ActionIcon variant="subtle" aria-label={label} onClick={() => void start()} data-testid={testId}>
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

export function TrainKnowledgeAction(props: RowActionComponentProps) {
  const { t } = useTranslation();
  const outcome = trainingOutcome(props.row);
  const storedFailure = outcome.state === 'failed' ? outcome.problems.map((problem) => problemText(problem, t)).join(' ') || t('error.server') : null;
  const warningOf = useCallback(
    (result: unknown) => {
      const problems = (result as RagTrainingResult | null)?.problems ?? [];
      if (problems.length === 0) return null;
      return [t('knowledge.train.warning', { count: problems.length }), ...problems.map((problem) => `• ${problemText(problem, t)}`)];
    },
    [t],
  );
  return (
    <LongRowAction
      {...props}
      run={ragApi.train}
      poll={ragApi.status}
      successKey="knowledge.train.success"
      testId="knowledge-train"
      storedFailure={storedFailure}
      warningOf={warningOf}
    />
  );
}

export function ClearKnowledgeAction(props: RowActionComponentProps) {
  return <LongRowAction {...props} run={ragApi.clear} successKey="knowledge.clear.success" testId="knowledge-clear" />;
}

/** Opens the knowledge base's page (/knowledge/:id): its sources, "Add content", training. */
export function ContentKnowledgeAction({ row, label, icon: Icon }: RowActionComponentProps) {
  const navigate = useNavigate();
  return (
    <Tooltip label={label} {...TOOLTIP}>
      <ActionIcon variant="subtle" aria-label={label} onClick={() => navigate(`/knowledge/${encodeURIComponent(String(row._id ?? ''))}`)} data-testid="knowledge-content">
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** Opens the knowledge base's page (/knowledge/:id), whose search box is docs/product-rules.md#screens's search page. */
export function SearchKnowledgeAction({ row, label, icon: Icon }: RowActionComponentProps) {
  const navigate = useNavigate();
  return (
    <Tooltip label={label} {...TOOLTIP}>
      <ActionIcon variant="subtle" aria-label={label} onClick={() => navigate(`/knowledge/${encodeURIComponent(String(row._id ?? ''))}`)} data-testid="knowledge-search">
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
