/**
 * How the job queue runs on each instance, read once at start-up from the environment (through
 * server/config.ts). Documented in README.md (Jobs).
 *
 * | Variable                 | Default | Meaning                                                              |
 * |--------------------------|---------|----------------------------------------------------------------------|
 * | JOBS_CONCURRENCY         | 4       | jobs one instance runs at once (0: this instance only enqueues)      |
 * | JOBS_POLL_MS             | 1000    | how often an idle instance looks for queued jobs                     |
 * | JOBS_HEARTBEAT_SECONDS   | 10      | how often a running job's instance says it is alive                  |
 * | JOBS_STALE_SECONDS       | 45      | a running job silent this long is retried elsewhere or marked failed |
 * | JOBS_RETENTION_DAYS      | 7       | finished jobs are deleted after this                                 |
 * | JOBS_MAX_ACTIVE_PER_USER | 20      | queued + running jobs one user may have (429 above)                  |
 */
export interface JobSettings {
  concurrency: number;
  pollMs: number;
  heartbeatMs: number;
  staleMs: number;
  retentionMs: number;
  maxActivePerUser: number;
  /** First retry delay; doubled per attempt, at most 5 minutes. */
  backoffMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  concurrency: 4,
  pollMs: 1000,
  heartbeatMs: 10_000,
  staleMs: 45_000,
  retentionMs: 7 * 24 * 3600_000,
  maxActivePerUser: 20,
  backoffMs: 5_000,
};

export function loadJobSettings(env: NodeJS.ProcessEnv): JobSettings {
  const heartbeatMs = (readNumber(env, 'JOBS_HEARTBEAT_SECONDS', 0.1) ?? DEFAULT_JOB_SETTINGS.heartbeatMs / 1000) * 1000;
  const staleMs = (readNumber(env, 'JOBS_STALE_SECONDS', 0.3) ?? DEFAULT_JOB_SETTINGS.staleMs / 1000) * 1000;
  if (staleMs < 2 * heartbeatMs) {
    throw new Error(`JOBS_STALE_SECONDS (${staleMs / 1000}) must be at least twice JOBS_HEARTBEAT_SECONDS (${heartbeatMs / 1000}): one late heartbeat must not fail a job`);
  }
  const days = readNumber(env, 'JOBS_RETENTION_DAYS', 0.0001);
  return {
    concurrency: readNumber(env, 'JOBS_CONCURRENCY', 0, true) ?? DEFAULT_JOB_SETTINGS.concurrency,
    pollMs: readNumber(env, 'JOBS_POLL_MS', 10, true) ?? DEFAULT_JOB_SETTINGS.pollMs,
    heartbeatMs,
    staleMs,
    retentionMs: days === null ? DEFAULT_JOB_SETTINGS.retentionMs : days * 24 * 3600_000,
    maxActivePerUser: readNumber(env, 'JOBS_MAX_ACTIVE_PER_USER', 1, true) ?? DEFAULT_JOB_SETTINGS.maxActivePerUser,
    backoffMs: DEFAULT_JOB_SETTINGS.backoffMs,
  };
}

function readNumber(env: NodeJS.ProcessEnv, name: string, min: number, integer = false): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min}; got ${JSON.stringify(raw)}`);
  }
  return value;
}
