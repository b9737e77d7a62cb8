import fs from 'node:fs';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';

/** Longest wait for one dependency: a probe answers within this, however the dependency hangs. */
export const READY_CHECK_TIMEOUT_MS = 2000;

export interface DependencyState {
  status: 'up' | 'down';
  latencyMs: number;
  /** Why it is down: an error code (ECONNREFUSED, 3D000, SQLITE_...), 'timeout' or a short reason. The detail goes to the log. */
  error?: string;
}

export interface ReadinessDependencies {
  database: Database;
  /** The coordination's shared stores (Redis when REDIS_URL is set), each a check that throws when down. */
  probes: Record<string, () => Promise<void>>;
  dataDir: string;
  jobs: JobQueue;
}

type Check = () => Promise<void>;

/**
 * GET /api/health/ready: 200 when every dependency answers, else 503 with each one's state, so a
 * load balancer stops sending traffic to an instance that would fail it (its database dropped or
 * unreachable, its data directory gone read-only, its job worker stopped). Each check is one
 * constant-cost call (SELECT 1, PING, access(2)) bounded by READY_CHECK_TIMEOUT_MS: nothing grows
 * with the data. GET /api/health stays the liveness check (the process answers at all).
 */
export function registerReadinessRoute(app: FastifyInstance, deps: ReadinessDependencies): void {
  const selectOne = sql`SELECT 1 AS ok`.compile(deps.database.kysely);
  const checks: Record<string, Check> = {
    database: async () => {
      await deps.database.first(selectOne);
    },
    ...deps.probes,
    dataDir: () => fs.promises.access(deps.dataDir, fs.constants.R_OK | fs.constants.W_OK),
    jobs: async () => {
      if (deps.jobs.workerState !== 'running') throw Object.assign(new Error('the job worker is stopped'), { code: 'stopped' });
    },
  };
  app.get('/api/health/ready', { config: { quietLog: true } }, async (request, reply) => {
    const names = Object.keys(checks);
    const states = await Promise.all(names.map((name) => timed(checks[name])));
    const result: Record<string, DependencyState> = {};
    const down: string[] = [];
    names.forEach((name, i) => {
      const { state, cause } = states[i];
      result[name] = state;
      if (state.status === 'down') {
        down.push(`${name} (${state.error})`);
        request.log.warn({ dependency: name, err: cause }, 'readiness check failed');
      }
    });
    reply.header('cache-control', 'no-store');
    if (down.length === 0) return { status: 'ready', checks: result };
    return reply.status(503).send({ status: 'unavailable', message: `Not ready: ${down.join(', ')} did not answer`, i18nMessage: 'error.server', checks: result });
  });
}

async function timed(check: Check): Promise<{ state: DependencyState; cause?: unknown }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${READY_CHECK_TIMEOUT_MS} ms`), { code: 'timeout' })), READY_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { state: { status: 'up', latencyMs: elapsed(started) } };
  } catch (error) {
    return { state: { status: 'down', latencyMs: elapsed(started), error: codeOf(error) }, cause: error };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/** An error code only (never a message: it may name hosts or paths), so the public probe leaks nothing. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code) ? code : 'error';
}
