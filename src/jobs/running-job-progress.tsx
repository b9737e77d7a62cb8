import { useQuery } from '@tanstack/react-query';
import type { ActiveJobProps } from '../../runtime/jobs/active-job-progress.tsx';
import { jobsApi } from './jobs-api.ts';
import { JobProgress } from './jobs-panel.tsx';

const POLL_MS = 1000;

/**
 * The progress bar of the caller's newest running import or export of `entity`, polled while the
 * import dialog or the export list waits for its answer (GET /api/jobs?kind=&state=running).
 */
export function RunningJobProgress({ kind, entity }: ActiveJobProps) {
  const running = useQuery({
    queryKey: ['jobs', 'running', kind, entity],
    queryFn: ({ signal }) => jobsApi.running(kind, signal),
    refetchInterval: POLL_MS,
  });
  const job = running.data?.items.find((item) => item.subject?.entity === entity);
  return job ? <JobProgress job={job} /> : null;
}
