import type { RequestContext } from '../http/request-context.ts';

/** queued -> running -> done | failed | cancelled; a running job whose instance died goes back to queued (or failed). */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'done', 'failed', 'cancelled'];
export const ACTIVE_STATES: readonly JobState[] = ['queued', 'running'];

/** What a job works on, for the console's jobs panel ("Entrenamiento · Ayuda"). */
export interface JobSubject {
  entity?: string;
  id?: string;
  label?: string;
}

/** A failure as the API's one error shape, plus the HTTP status the waiting request answers with. */
export interface JobError {
  status: number;
  message: string;
  i18nMessage?: string;
  inputErrors?: { field: string; reason: string }[];
  details?: Record<string, unknown>;
}

export interface JobProgress {
  done: number;
  /** 0: not known yet (an export counts its rows as it goes). */
  total: number;
  /** What the job is doing (training: planning, embedding, indexing). */
  phase: string | null;
}

/** The caller a job runs for: the permission checks of its work are the enqueuing request's. */
export type JobContext = Pick<RequestContext, 'userId' | 'tenantId' | 'permissions' | 'roleId'>;

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
}

export function isFinished(state: JobState): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}
