import { restApi } from '../session/api-client.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** One job as GET /api/jobs lists it (server/jobs/job-routes.ts JobView). */
export interface JobView {
  id: string;
  kind: string;
  state: JobState;
  progress: { done: number; total: number; phase: string | null };
  subject: { entity?: string; id?: string; label?: string } | null;
  userId: string | null;
  attempts: number;
  maxAttempts: number;
  cancelRequested: boolean;
  error: { message: string; i18nMessage?: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const ACTIVE_JOB_STATES: readonly JobState[] = ['queued', 'running'];

/** The jobs API: the caller's recent jobs, and cancelling one. */
export const jobsApi = {
  list: (limit = 20, signal?: AbortSignal) => restApi.call<{ items: JobView[]; total: number }>({ method: 'GET', path: '/api/jobs', searchParams: { limit }, signal }),
  running: (kind: string, signal?: AbortSignal) =>
    restApi.call<{ items: JobView[]; total: number }>({ method: 'GET', path: '/api/jobs', searchParams: { kind, state: 'running', limit: 5 }, signal }),
  cancel: (id: string) => restApi.call<JobView>({ method: 'POST', path: `/api/jobs/${encodeURIComponent(id)}/cancel` }),
};
