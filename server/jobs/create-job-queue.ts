import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { JobQueue } from './job-queue.ts';
import { registerJobRoutes } from './job-routes.ts';
import { createJobOperations } from './job-operations.ts';
import type { DefineOperation } from '../operations/define-operation.ts';
import type { JobSettings } from './job-settings.ts';
import { createJobStore } from './job-store.ts';

const PRUNE_EVERY_MS = 3600_000;

/**
 * The instance's job queue, ready for features to register their kinds on: table created, the
 * jobs API registered, the worker started once the server is ready (after every kind is known)
 * and stopped before the database closes (its running jobs go back to the queue).
 */
export async function createJobQueue(app: FastifyInstance, database: Database, settings: JobSettings, defineOperation: DefineOperation): Promise<JobQueue> {
  const store = createJobStore(database);
  const jobs = new JobQueue(store, settings, app.log);
  // Finished jobs are kept for the jobs panel, then deleted: the table cannot grow without bound.
  jobs.handle('jobs-prune', {
    maxAttempts: 3,
    retryOnError: true,
    run: async ({ log }) => {
      const removed = await store.prune(Date.now() - settings.retentionMs);
      if (removed > 0) log.info({ removed }, 'finished jobs deleted');
      return { removed };
    },
  });
  jobs.schedule('jobs-prune', PRUNE_EVERY_MS);
  registerJobRoutes(app, createJobOperations(jobs, defineOperation));
  app.addHook('onReady', async () => jobs.start());
  app.addHook('preClose', async () => jobs.stop());
  return jobs;
}
