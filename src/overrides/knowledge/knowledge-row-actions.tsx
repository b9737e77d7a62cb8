import { useCallback, useEffect, useRef, useState } from 'react';
import { ActionIcon, Loader, RingProgress, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RowActionComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { ragApi, type RagTrainingStatus } from '../../knowledge/rag-api.ts';

const POLL_MS = 700;
const NOTIFICATION_MS = 3000;
const TOOLTIP = { openDelay: 300, closeDelay: 250 } as const;

type RunState = { kind: 'idle' } | { kind: 'running'; progress: RagTrainingStatus | null } | { kind: 'failed'; message: string };

/** The message of a failed call: an i18n key (translated) or the server's own text. */
function failureText(error: unknown, t: (key: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  return t(message);
}

/**
 * A row action that runs a long knowledge operation: a spinner (or a progress ring fed by
 * `poll`) while it runs, then either back to its icon or, on failure, a red alert icon whose
 * tooltip holds the message (spec §8); clicking the alert tries again.
 */
function LongRowAction(props: RowActionComponentProps & {
  run: (id: string) => Promise<unknown>;
  poll?: (id: string, signal: AbortSignal) => Promise<RagTrainingStatus>;
  successKey: string;
  testId: string;
}) {
  const { row, reload, label, icon: Icon, run, poll, successKey, testId } = props;
  const { t } = useTranslation();
  const id = String(row._id ?? '');
  const [state, setState] = useState<RunState>({ kind: 'idle' });
  const mounted = useRef(true);
  useEffect(() => {
    // Set again on (StrictMode) re-mount, not only initialised: otherwise results would be dropped.
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // While running, poll the server's progress (done of total chunks).
  useEffect(() => {
    if (state.kind !== 'running' || !poll) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      poll(id, controller.signal)
        .then((progress) => {
          if (mounted.current && progress.state === 'running') setState((s) => (s.kind === 'running' ? { kind: 'running', progress } : s));
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [state.kind, poll, id]);

  const start = useCallback(async () => {
    setState({ kind: 'running', progress: null });
    try {
      await run(id);
      if (!mounted.current) return;
      setState({ kind: 'idle' });
      notifications.show({ message: t(successKey), color: 'green', autoClose: NOTIFICATION_MS });
      reload();
    } catch (error) {
      console.error(error);
      if (mounted.current) setState({ kind: 'failed', message: failureText(error, t) });
    }
  }, [run, id, t, successKey, reload]);

  if (state.kind === 'running') {
    const progress = state.progress;
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
  return <LongRowAction {...props} run={ragApi.train} poll={ragApi.status} successKey="knowledge.train.success" testId="knowledge-train" />;
}

export function ClearKnowledgeAction(props: RowActionComponentProps) {
  return <LongRowAction {...props} run={ragApi.clear} successKey="knowledge.clear.success" testId="knowledge-clear" />;
}

/** Opens the knowledge search page (/knowledge/:id). */
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
