import type { RequestContext } from '../http/request-context.ts';
import { ACTIVE_JOB_STATES, type JobProgress, type JobState, type JobSubject } from '../../contract/jobs/job-view.ts';

// The states, subject and progress are the wire contract's (contract/jobs/job-view.ts).
export { JOB_STATES } from '../../contract/jobs/job-view.ts';
export type { JobProgress, JobState, JobSubject };
export const ACTIVE_STATES = ACTIVE_JOB_STATES;

/** A failure as the API's one error shape, plus the HTTP status the waiting request answers with. */
export interface JobError {
  status: number;
  message: string;
  i18nMessage?: string;
  inputErrors?: { field: string; reason: string }[];
  details?: Record<string, unknown>;
}

/** The caller a job runs for: the permission checks of its work are the enqueuing request's. */
export type JobContext = Pick<RequestContext, 'userId' | 'tenantId' | 'permissions' | 'roleId'> & {
  /** The request that enqueued it (X-Request-Id), carried into the job's log lines. */
  requestId?: string;
};

/** One row of the jobs table, decoded. Times are epoch milliseconds. */
export interface JobRecord {
  id: string;
  kind: string;
  state: JobState;
  userId: string | null;
  tenantId: string | null;
  singletonKey: string | null;
  subject: JobSubject | null;
  payload: unknown;
  context: JobContext;
  progress: JobProgress;
  result: unknown;
  error: JobError | null;
  attempts: number;
  maxAttempts: number;
  runAfter: number;
  heartbeatAt: number | null;
  /** The instance running it (host:pid:random), null unless running. */
  worker: string | null;
  cancelRequested: boolean;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface EnqueueJob {
  kind: string;
  payload: unknown;
  context: JobContext;
  /** At most one queued or running job holds a key (one training per knowledge base): a second enqueue is refused. */
  singletonKey?: string;
  subject?: JobSubject;
  /** A fixed id: enqueueing it again is a no-op (one scheduled run per time slot across instances). */
  id?: string;
  /** Default: the id of the request being handled (observability/request-id.ts), if any. */
  requestId?: string;
}

export function isFinished(state: JobState): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}
