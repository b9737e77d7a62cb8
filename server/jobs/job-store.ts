import { sql, type RawBuilder } from 'kysely';
import type { Database, Row } from '../db/database.ts';
import { ACTIVE_STATES, type EnqueueJob, type JobError, type JobProgress, type JobRecord, type JobState } from './job-record.ts';

const TABLE = 'forja_jobs';

/**
 * The durable half of the job queue: one table (forja_jobs, made at start with Forja's other own
 * tables, server/db/owned-tables.ts), the same on every engine except for how a worker
 * claims the next job. Every state change is one conditional UPDATE (`WHERE state = 'running' AND
 * worker = me`), so an instance that lost a job to the reaper can never overwrite its new owner.
 */
export interface JobStore {
  /** False when the singleton key or the fixed id is already taken. */
  insert(job: JobRecord): Promise<boolean>;
  get(id: string): Promise<JobRecord | null>;
  /** Newest first; `userId`/`tenantId` undefined: anyone's. */
  list(filter: { userId?: string | null; tenantId?: string | null; kind?: string; limit: number }): Promise<JobRecord[]>;
  /** The newest job holding `singletonKey`, whatever its state. */
  latest(singletonKey: string): Promise<JobRecord | null>;
  countActive(userId: string): Promise<number>;
  /** Takes the oldest due queued job of `kinds` for `worker` (state running, attempts + 1). */
  claim(kinds: readonly string[], worker: string, now: number): Promise<JobRecord | null>;
  /** Refreshes the heartbeat of `ids` held by `worker`; answers the ones it still holds, with their cancel flags. */
  heartbeat(ids: readonly string[], worker: string, now: number): Promise<{ id: string; cancelRequested: boolean }[]>;
  progress(id: string, worker: string, progress: JobProgress): Promise<void>;
  /** Ends a job held by `worker`; false when it no longer held it. */
  finish(id: string, worker: string, state: Extract<JobState, 'done' | 'failed' | 'cancelled'>, outcome: { result?: unknown; error?: JobError }, now: number): Promise<boolean>;
  /** Puts a job held by `worker` back in the queue to run after `runAfter` (a retry, or a graceful stop). */
  requeue(id: string, worker: string | null, runAfter: number, error: JobError | null): Promise<boolean>;
  /** Running jobs whose heartbeat is older than `before` (their instance died or hangs). */
  stale(before: number): Promise<JobRecord[]>;
  /** Reaper: requeues (attempts left) or fails a stale job, unless its heartbeat moved meanwhile. */
  reap(id: string, before: number, outcome: { runAfter: number } | { error: JobError; now: number }): Promise<boolean>;
  /** queued -> cancelled at once; running -> cancel requested (its worker stops it). Answers the new state. */
  cancel(id: string, now: number): Promise<JobState | null>;
  /** Deletes finished jobs older than `before`; answers how many. */
  prune(before: number): Promise<number>;
  /** Queued and running jobs of every instance, for the metrics (counts on the (state, run_after) index). */
  depth(): Promise<{ queued: number; running: number }>;
}

export function createJobStore(database: Database): JobStore {
  return new SqlJobStore(database);
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const active = sql.join(ACTIVE_STATES.map((state) => sql.lit(state)));

class SqlJobStore implements JobStore {
  /** What differs between the engines: only the claim, whose subquery skips rows other workers hold (SqlDialect.skipLockedRows). */
  private readonly claimLock: RawBuilder<unknown>;

  constructor(private readonly database: Database) {
    this.claimLock = sql.raw(database.dialect.skipLockedRows);
  }

  private all(query: RawBuilder<unknown>): Promise<Row[]> {
    return this.database.all(query.compile(this.database.kysely));
  }

  private run(query: RawBuilder<unknown>): Promise<number> {
    return this.database.run(query.compile(this.database.kysely));
  }

  async insert(job: JobRecord): Promise<boolean> {
    const changed = await this.run(sql`INSERT INTO ${sql.table(TABLE)}
      (id, kind, state, user_id, tenant_id, singleton_key, subject, payload, context, progress_done, progress_total, phase,
       attempts, max_attempts, run_after, cancel_requested, created_at)
      VALUES (${job.id}, ${job.kind}, ${job.state}, ${job.userId}, ${job.tenantId}, ${job.singletonKey}, ${json(job.subject)},
        ${json(job.payload)}, ${json(job.context)}, 0, 0, NULL, 0, ${job.maxAttempts}, ${job.runAfter}, 0, ${job.createdAt})
      ON CONFLICT DO NOTHING`);
    return changed > 0;
  }

  async get(id: string): Promise<JobRecord | null> {
    const rows = await this.all(sql`SELECT * FROM ${sql.table(TABLE)} WHERE id = ${id}`);
    return rows[0] ? decode(rows[0]) : null;
  }

  async list(filter: { userId?: string | null; tenantId?: string | null; kind?: string; limit: number }): Promise<JobRecord[]> {
    const where: RawBuilder<unknown>[] = [sql`1 = 1`];
    if (filter.userId !== undefined) where.push(filter.userId === null ? sql`user_id IS NULL` : sql`user_id = ${filter.userId}`);
    if (filter.tenantId !== undefined) where.push(filter.tenantId === null ? sql`tenant_id IS NULL` : sql`tenant_id = ${filter.tenantId}`);
    if (filter.kind !== undefined) where.push(sql`kind = ${filter.kind}`);
    const rows = await this.all(sql`SELECT * FROM ${sql.table(TABLE)} WHERE ${sql.join(where, sql` AND `)}
      ORDER BY created_at DESC, id DESC LIMIT ${filter.limit}`);
    return rows.map(decode);
  }

  async latest(singletonKey: string): Promise<JobRecord | null> {
    const rows = await this.all(sql`SELECT * FROM ${sql.table(TABLE)} WHERE singleton_key = ${singletonKey} ORDER BY created_at DESC, id DESC LIMIT 1`);
    return rows[0] ? decode(rows[0]) : null;
  }

  async countActive(userId: string): Promise<number> {
    const rows = await this.all(sql`SELECT COUNT(*) AS n FROM ${sql.table(TABLE)} WHERE user_id = ${userId} AND state IN (${active})`);
    return Number(rows[0]?.n ?? 0);
  }

  async claim(kinds: readonly string[], worker: string, now: number): Promise<JobRecord | null> {
    if (kinds.length === 0) return null;
    const rows = await this.all(sql`UPDATE ${sql.table(TABLE)}
      SET state = 'running', worker = ${worker}, heartbeat_at = ${now}, started_at = ${now}, attempts = attempts + 1
      WHERE id = (
        SELECT id FROM ${sql.table(TABLE)}
        WHERE state = 'queued' AND run_after <= ${now} AND kind IN (${sql.join([...kinds])})
        ORDER BY run_after, created_at LIMIT 1 ${this.claimLock}
      ) AND state = 'queued'
      RETURNING *`);
    return rows[0] ? decode(rows[0]) : null;
  }

  async heartbeat(ids: readonly string[], worker: string, now: number): Promise<{ id: string; cancelRequested: boolean }[]> {
    if (ids.length === 0) return [];
    const rows = await this.all(sql`UPDATE ${sql.table(TABLE)} SET heartbeat_at = ${now}
      WHERE id IN (${sql.join([...ids])}) AND state = 'running' AND worker = ${worker}
      RETURNING id, cancel_requested`);
    return rows.map((row) => ({ id: String(row.id), cancelRequested: Number(row.cancel_requested) === 1 }));
  }

  async progress(id: string, worker: string, progress: JobProgress): Promise<void> {
    await this.run(sql`UPDATE ${sql.table(TABLE)} SET progress_done = ${progress.done}, progress_total = ${progress.total}, phase = ${progress.phase}
      WHERE id = ${id} AND state = 'running' AND worker = ${worker}`);
  }

  async finish(id: string, worker: string, state: 'done' | 'failed' | 'cancelled', outcome: { result?: unknown; error?: JobError }, now: number): Promise<boolean> {
    const changed = await this.run(sql`UPDATE ${sql.table(TABLE)}
      SET state = ${state}, result = ${json(outcome.result)}, error = ${json(outcome.error)}, finished_at = ${now}, worker = NULL,
        progress_done = ${state === 'done' ? sql`CASE WHEN progress_total > 0 THEN progress_total ELSE progress_done END` : sql`progress_done`}
      WHERE id = ${id} AND state = 'running' AND worker = ${worker}`);
    return changed > 0;
  }

  async requeue(id: string, worker: string | null, runAfter: number, error: JobError | null): Promise<boolean> {
    const changed = await this.run(sql`UPDATE ${sql.table(TABLE)}
      SET state = 'queued', worker = NULL, heartbeat_at = NULL, run_after = ${runAfter}, error = ${json(error ?? undefined)}
      WHERE id = ${id} AND state = 'running' AND ${worker === null ? sql`1 = 1` : sql`worker = ${worker}`}`);
    return changed > 0;
  }

  async stale(before: number): Promise<JobRecord[]> {
    const rows = await this.all(sql`SELECT * FROM ${sql.table(TABLE)} WHERE state = 'running' AND heartbeat_at < ${before} ORDER BY heartbeat_at LIMIT 100`);
    return rows.map(decode);
  }

  async reap(id: string, before: number, outcome: { runAfter: number } | { error: JobError; now: number }): Promise<boolean> {
    const changed = 'runAfter' in outcome
      ? await this.run(sql`UPDATE ${sql.table(TABLE)} SET state = 'queued', worker = NULL, heartbeat_at = NULL, run_after = ${outcome.runAfter}
          WHERE id = ${id} AND state = 'running' AND heartbeat_at < ${before}`)
      : await this.run(sql`UPDATE ${sql.table(TABLE)} SET state = 'failed', worker = NULL, error = ${json(outcome.error)}, finished_at = ${outcome.now}
          WHERE id = ${id} AND state = 'running' AND heartbeat_at < ${before}`);
    return changed > 0;
  }

  async cancel(id: string, now: number): Promise<JobState | null> {
    await this.run(sql`UPDATE ${sql.table(TABLE)} SET state = 'cancelled', finished_at = ${now}, cancel_requested = 1 WHERE id = ${id} AND state = 'queued'`);
    await this.run(sql`UPDATE ${sql.table(TABLE)} SET cancel_requested = 1 WHERE id = ${id} AND state = 'running'`);
    return (await this.get(id))?.state ?? null;
  }

  async depth(): Promise<{ queued: number; running: number }> {
    const rows = await this.all(sql`SELECT state, COUNT(*) AS n FROM ${sql.table(TABLE)} WHERE state IN (${active}) GROUP BY state`);
    const count = (state: string) => Number(rows.find((row) => row.state === state)?.n ?? 0);
    return { queued: count('queued'), running: count('running') };
  }

  async prune(before: number): Promise<number> {
    return this.run(sql`DELETE FROM ${sql.table(TABLE)} WHERE state NOT IN (${active}) AND finished_at < ${before}`);
  }
}

function parse(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : (value ?? null);
}

const maybeNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function decode(row: Row): JobRecord {
  return {
    id: String(row.id),
    kind: String(row.kind),
    state: row.state as JobState,
    userId: (row.user_id as string | null) ?? null,
    tenantId: (row.tenant_id as string | null) ?? null,
    singletonKey: (row.singleton_key as string | null) ?? null,
    subject: parse(row.subject) as JobRecord['subject'],
    payload: parse(row.payload),
    context: parse(row.context) as JobRecord['context'],
    progress: { done: Number(row.progress_done ?? 0), total: Number(row.progress_total ?? 0), phase: (row.phase as string | null) ?? null },
    result: parse(row.result),
    error: parse(row.error) as JobError | null,
    attempts: Number(row.attempts ?? 0),
    maxAttempts: Number(row.max_attempts ?? 1),
    runAfter: Number(row.run_after),
    heartbeatAt: maybeNumber(row.heartbeat_at),
    worker: (row.worker as string | null) ?? null,
    cancelRequested: Number(row.cancel_requested ?? 0) === 1,
    createdAt: Number(row.created_at),
    startedAt: maybeNumber(row.started_at),
    finishedAt: maybeNumber(row.finished_at),
  };
}
