import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { JobListQuery, JobOperations } from './job-operations.ts';

/** GET /api/jobs, GET /api/jobs/:id, POST /api/jobs/:id/cancel: REST adapters of the job operations (job-operations.ts). */
export function registerJobRoutes(app: FastifyInstance, jobs: JobOperations): void {
  app.get<{ Querystring: JobListQuery }>('/api/jobs', { config: { operation: jobs.list } }, async (request) => jobs.list(callerOf(request), request.query ?? {}));
  app.get<{ Params: { id: string } }>('/api/jobs/:id', { config: { operation: jobs.get } }, async (request) => jobs.get(callerOf(request), { id: request.params.id }));
  app.post<{ Params: { id: string } }>('/api/jobs/:id/cancel', { config: { operation: jobs.cancel } }, async (request) =>
    jobs.cancel(callerOf(request), { id: request.params.id }),
  );
}
