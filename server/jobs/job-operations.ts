import { HttpError, badRequest } from '../http/http-error.ts';
import { hasPermission, type RequestContext } from '../http/request-context.ts';
import { isFinished, JOB_STATES, type JobRecord, type JobState } from './job-record.ts';
import type { JobQueue } from './job-queue.ts';
import type { JobList, JobView } from '../../contract/jobs/job-view.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** Whoever manages users administers their jobs too. */
const JOBS_ADMIN_PERMISSION = 'user:manage';

/**
 * An administrator (user:manage) sees and cancels every job of their tenant (all of them without
 * a tenant); anyone else only their own. A job the caller may not see is a 404, like a record of
 * another tenant.
 */
export function isJobsAdmin(context: RequestContext): boolean {
  return hasPermission(context, JOBS_ADMIN_PERMISSION);
}

export function maySeeJob(context: RequestContext, job: JobRecord): boolean {
  if (context.userId === null) return false;
  if (isJobsAdmin(context)) return context.tenantId === null || job.tenantId === context.tenantId;
  return job.userId === context.userId && job.tenantId === (context.tenantId ?? null);
}

export interface JobListQuery {
  limit?: unknown;
  all?: unknown;
  kind?: unknown;
  state?: unknown;
}

/** The jobs panel's operations: any signed-in caller, narrowed to the jobs they may see (maySeeJob). */
export interface JobOperations {
  list: Operation<JobListQuery, JobList>;
  get: Operation<{ id: string }, JobView>;
  cancel: Operation<{ id: string }, JobView>;
}

export function createJobOperations(jobs: JobQueue, define: DefineOperation): JobOperations {
  return {
    list: define<JobListQuery, JobList>('signedIn', async ({ context }, query) => {
      const limit = readLimit(query.limit);
      const all = readBoolean(query.all, 'all');
      const kind = readText(query.kind, 'kind');
      const state = readText(query.state, 'state');
      if (state !== undefined && !JOB_STATES.includes(state as JobState)) {
        throw badRequest(`state must be one of ${JOB_STATES.join(', ')}; got "${state}"`);
      }
      if (all && !isJobsAdmin(context)) {
        throw new HttpError(403, 'Only administrators may list other users\' jobs; leave out all=true to see yours', { i18nMessage: 'error.forbidden' });
      }
      const records = await jobs.store.list({
        ...(all ? {} : { userId: context.userId }),
        ...(all && context.tenantId === null ? {} : { tenantId: context.tenantId ?? null }),
        ...(kind ? { kind } : {}),
        limit: state ? MAX_LIMIT : limit,
      });
      const items = records.filter((job) => maySeeJob(context, job) && (!state || job.state === state)).slice(0, limit);
      return { items: items.map((job) => jobView(job, context, false)), total: items.length };
    }),
    get: define<{ id: string }, JobView>('signedIn', async ({ context }, { id }) => jobView(await visibleJob(jobs, context, id), context, true)),
    cancel: define<{ id: string }, JobView>('signedIn', async ({ context }, { id }) => {
      const job = await visibleJob(jobs, context, id);
      if (isFinished(job.state)) {
        throw new HttpError(409, `This job is already ${job.state}; there is nothing to cancel`, { i18nMessage: 'error.jobs.finished' });
      }
      await jobs.cancel(job.id);
      return jobView((await jobs.get(job.id)) ?? job, context, false);
    }),
  };
}

async function visibleJob(jobs: JobQueue, context: RequestContext, id: string): Promise<JobRecord> {
  const job = await jobs.get(id);
  if (!job || !maySeeJob(context, job)) {
    throw new HttpError(404, `Job ${id} not found`, { i18nMessage: 'error.jobs.notFound' });
  }
  return job;
}

export function jobView(job: JobRecord, context: RequestContext, withResult: boolean): JobView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    progress: job.progress,
    subject: job.subject,
    userId: job.userId,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    cancelRequested: job.cancelRequested,
    error: job.error ? { message: job.error.message, ...(job.error.i18nMessage ? { i18nMessage: job.error.i18nMessage } : {}) } : null,
    createdAt: new Date(job.createdAt).toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    ...(withResult && job.userId !== null && job.userId === context.userId ? { result: job.result } : {}),
    ...(isJobsAdmin(context) ? { worker: job.worker } : {}),
  };
}

function readLimit(raw: unknown): number {
  const text = readText(raw, 'limit');
  if (text === undefined) return DEFAULT_LIMIT;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) throw badRequest(`limit must be an integer from 1 to ${MAX_LIMIT}; got "${text}"`);
  return value;
}

function readBoolean(raw: unknown, name: string): boolean {
  const text = readText(raw, name);
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return true;
  throw badRequest(`${name} must be true or false; got "${text}"`);
}

function readText(raw: unknown, name: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (Array.isArray(raw)) throw badRequest(`Query parameter "${name}" was given more than once`);
  const text = String(raw);
  if (text.length > 100) throw badRequest(`${name} is ${text.length} characters; at most 100`);
  return text;
}
