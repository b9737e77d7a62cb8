import type { JobList, JobView } from '../../contract/jobs/job-view.ts';
import { restApi } from '../session/api-client.ts';

export { ACTIVE_JOB_STATES, type JobState, type JobView } from '../../contract/jobs/job-view.ts';

/** The jobs API: the caller's recent jobs, and cancelling one. */
export const jobsApi = {
  list: (limit = 20, signal?: AbortSignal) => restApi.call<JobList>({ method: 'GET', path: '/api/jobs', searchParams: { limit }, signal }),
  running: (kind: string, signal?: AbortSignal) =>
    restApi.call<JobList>({ method: 'GET', path: '/api/jobs', searchParams: { kind, state: 'running', limit: 5 }, signal }),
  cancel: (id: string) => restApi.call<JobView>({ method: 'POST', path: `/api/jobs/${encodeURIComponent(id)}/cancel` }),
};
