/**
 * A background job as GET /api/jobs and /api/jobs/:id answer it (server/jobs/job-routes.ts), read
 * by the console's jobs panel (src/jobs/jobs-api.ts). One declaration for both sides: code shared
 * by server/ and the console lives under contract/ and imports from neither.
 */

/** queued -> running -> done | failed | cancelled; a running job whose instance died goes back to queued (or failed). */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'done', 'failed', 'cancelled'];
/** The states of a job not finished yet. */
export const ACTIVE_JOB_STATES: readonly JobState[] = ['queued', 'running'];

/** What a job works on, for the console's jobs panel ("Entrenamiento · Ayuda"). */
export interface JobSubject {
  entity?: string;
  id?: string;
  label?: string;
}

export interface JobProgress {
  done: number;
  /** 0: not known yet (an export counts its rows as it goes). */
  total: number;
  /** What the job is doing (training: planning, embedding, indexing). */
  phase: string | null;
}

/** A job as the console sees it. Times are ISO-8601. */
export interface JobView {
  id: string;
  kind: string;
  state: JobState;
  progress: JobProgress;
  subject: JobSubject | null;
  userId: string | null;
  attempts: number;
  maxAttempts: number;
  cancelRequested: boolean;
  error: { message: string; i18nMessage?: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Only GET /api/jobs/:id, only to the job's own user (an export's download link is theirs alone). */
  result?: unknown;
  /** The instance running it: administrators only. */
  worker?: string | null;
}

/** GET /api/jobs. */
export interface JobList {
  items: JobView[];
  total: number;
}
