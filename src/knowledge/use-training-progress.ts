import { useId } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RagTrainingStatus } from './rag-api.ts';

/** How often a running training's progress is asked for. */
export const TRAINING_POLL_MS = 700;

/**
 * The progress of a training while `running`, polled by TanStack Query (refetchInterval) rather
 * than a hand-kept timer: asked every 700 ms, the request aborted when the training ends or the
 * component goes. Holds the last "running" answer (an answer after the end, or a failed poll,
 * changes nothing: the training's own response tells how it ended); null before the first one.
 * Each caller has its own query (useId), so two screens never share a status function.
 */
export function useTrainingProgress(running: boolean, status: (signal: AbortSignal) => Promise<RagTrainingStatus>): RagTrainingStatus | null {
  const client = useQueryClient();
  const queryKey = ['rag-training-progress', useId(), running] as const;
  const { data } = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const next = await status(signal);
      return next.state === 'running' ? next : (client.getQueryData<RagTrainingStatus | null>(queryKey) ?? null);
    },
    enabled: running,
    refetchInterval: TRAINING_POLL_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: false,
    // A finished run's progress is dropped, so the next run starts from nothing.
    gcTime: 0,
  });
  return running ? (data ?? null) : null;
}
