import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../http/http-error.ts';
import { hasPermission, type RequestContext } from '../http/request-context.ts';
import { isFinished, JOB_STATES, type JobRecord, type JobState } from './job-record.ts';
import type { JobQueue } from './job-queue.ts';
import type { JobList, JobView } from '../../contract/jobs/job-view.ts';

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

/** GET /api/jobs, GET /api/jobs/:id, POST /api/jobs/:id/cancel: any signed-in user, checked per job. */
export function registerJobRoutes(app: FastifyInstance, jobs: JobQueue): void {
  const signedIn = { config: { authenticated: true } };

  app.get<{ Querystring: Record<string, unknown> }>('/api/jobs', signedIn, async (request): Promise<JobList> => {
    const query = request.query ?? {};
    const limit = readLimit(query.limit);
    const all = readBoolean(query.all, 'all');
    const kind = readText(query.kind, 'kind');
    const state = readText(query.state, 'state');
    if (state !== undefined && !JOB_STATES.includes(state as JobState)) {
      throw badRequest(`state must be one of ${JOB_STATES.join(', ')}; got "${state}"`);
    }
    const context = request.context;
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
  });

  app.get<{ Params: { id: string } }>('/api/jobs/:id', signedIn, async (request) => jobView(await visibleJob(jobs, request), request.context, true));

  app.post<{ Params: { id: string } }>('/api/jobs/:id/cancel', signedIn, async (request) => {
    const job = await visibleJob(jobs, request);
    if (isFinished(job.state)) {
      throw new HttpError(409, `This job is already ${job.state}; there is nothing to cancel`, { i18nMessage: 'error.jobs.finished' });
    }
    await jobs.cancel(job.id);
    return jobView((await jobs.get(job.id)) ?? job, request.context, false);
  });
}

async function visibleJob(jobs: JobQueue, request: FastifyRequest<{ Params: { id: string } }>): Promise<JobRecord> {
  const job = await jobs.get(request.params.id);
  if (!job || !maySeeJob(request.context, job)) {
    throw new HttpError(404, `Job ${request.params.id} not found`, { i18nMessage: 'error.jobs.notFound' });
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
