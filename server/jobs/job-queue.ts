import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import { jobDuration } from '../observability/metrics.ts';
import type { RequestContext } from '../http/request-context.ts';
import { isFinished, type EnqueueJob, type JobContext, type JobError, type JobProgress, type JobRecord, type JobState } from './job-record.ts';
import type { JobSettings } from './job-settings.ts';
import type { JobStore } from './job-store.ts';

/** What a handler gets: its payload, the caller it works for, a cancel signal and a progress reporter. */
export interface JobRun<P = unknown> {
  id: string;
  payload: P;
  context: RequestContext;
  /** 1 on the first run; more after a retry or after its instance died. */
  attempt: number;
  /** Aborted when the job is cancelled, lost to another instance or the server stops. */
  signal: AbortSignal;
  /** Stored at most twice a second; throws JobStopped once `signal` is aborted, so a loop reporting progress stops there. */
  progress(done: number, total: number, phase?: string | null): void;
  log: FastifyBaseLogger;
}

export interface JobKind<P = unknown> {
  run(job: JobRun<P>): Promise<unknown>;
  /** Runs in all, counting a run whose instance died (default 1: never repeated). Only raise it for work safe to repeat. */
  maxAttempts?: number;
  /** A failure that is not the caller's fault (5xx) is retried with backoff while attempts remain. */
  retryOnError?: boolean;
  /** After the job failed for good, on whichever instance noticed (its own run or the reaper). */
  onFailed?(job: JobRecord, error: JobError): Promise<void>;
}

/** Thrown into a handler whose job was cancelled, lost or stopped: it ends the run, not the server. */
export class JobStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`Job stopped: ${reason}`);
    this.name = 'JobStopped';
  }
}

type StopReason = 'cancelled' | 'lost' | 'shutdown';

const PROGRESS_WRITE_MS = 500;
const MAX_BACKOFF_MS = 300_000;
const SHUTDOWN_GRACE_MS = 5_000;
/** Event waking every waiter when the queue stops (a job id is never this). */
const STOPPING = '\0stopping';

export const CANCELLED_ERROR: JobError = { status: 409, message: 'The job was cancelled', i18nMessage: 'error.jobs.cancelled' };
export const LOST_ERROR: JobError = {
  status: 500,
  message: 'The server running this job stopped before it finished; run it again',
  i18nMessage: 'error.jobs.lost',
};

interface Running {
  controller: AbortController;
  reason: StopReason | null;
  settled: Promise<void>;
}

/**
 * The durable job queue every instance runs (README.md "Jobs"): jobs live in the database
 * (job-store.ts), any instance may enqueue, read or cancel one, and each instance's worker claims
 * due jobs up to JOBS_CONCURRENCY, keeps a heartbeat on them, and reaps jobs whose instance went
 * silent: back to the queue while attempts remain, else failed. On SQLite it is the same code in
 * the one server process, so `npm start` needs nothing more.
 */
export class JobQueue {
  readonly worker = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly #kinds = new Map<string, JobKind<any>>();
  readonly #running = new Map<string, Running>();
  readonly #finished = new EventEmitter();
  readonly #schedules: { kind: string; everyMs: number }[] = [];
  #timers: NodeJS.Timeout[] = [];
  #pollTimer: NodeJS.Timeout | null = null;
  #polling = false;
  #started = false;
  #stopping = false;

  constructor(
    readonly store: JobStore,
    readonly settings: JobSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#finished.setMaxListeners(0);
  }

  /** Registers the handler of `kind` (once per kind: a second one is a programming error). */
  handle<P>(kind: string, definition: JobKind<P>): void {
    if (this.#kinds.has(kind)) throw new Error(`Job kind "${kind}" has a handler already`);
    this.#kinds.set(kind, definition as JobKind<any>);
  }

  /** Runs `kind` once per `everyMs` slot across all instances (the slot is the job's id). */
  schedule(kind: string, everyMs: number): void {
    this.#schedules.push({ kind, everyMs });
  }

  /**
   * Queues a job; null when its singleton key is held by a queued or running job (the caller
   * answers 409). A user may hold at most JOBS_MAX_ACTIVE_PER_USER unfinished jobs (429 above).
   */
  async enqueue(input: EnqueueJob): Promise<JobRecord | null> {
    const kind = this.#kinds.get(input.kind);
    if (!kind) throw new Error(`No handler for job kind "${input.kind}" (known: ${[...this.#kinds.keys()].join(', ')})`);
    const userId = input.context.userId ?? null;
    if (userId !== null && (await this.store.countActive(userId)) >= this.settings.maxActivePerUser) {
      throw new HttpError(429, `You already have ${this.settings.maxActivePerUser} jobs queued or running; wait for some to finish`, {
        i18nMessage: 'error.jobs.tooMany',
        details: { i18nParams: { count: this.settings.maxActivePerUser } },
      });
    }
    const now = Date.now();
    const record: JobRecord = {
      id: input.id ?? randomUUID(),
      kind: input.kind,
      state: 'queued',
      userId,
      tenantId: input.context.tenantId ?? null,
      singletonKey: input.singletonKey ?? null,
      subject: input.subject ?? null,
      payload: input.payload,
      context: contextOf(input.context, input.requestId ?? input.context.requestId),
      progress: { done: 0, total: 0, phase: null },
      result: null,
      error: null,
      attempts: 0,
      maxAttempts: Math.max(1, kind.maxAttempts ?? 1),
      runAfter: now,
      heartbeatAt: null,
      worker: null,
      cancelRequested: false,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
    };
    if (!(await this.store.insert(record))) return null;
    this.#pollSoon();
    return record;
  }

  get(id: string): Promise<JobRecord | null> {
    return this.store.get(id);
  }

  latest(singletonKey: string): Promise<JobRecord | null> {
    return this.store.latest(singletonKey);
  }

  /** Cancels a queued job at once; a running one is stopped by its instance at its next heartbeat (sooner here). */
  async cancel(id: string): Promise<JobState | null> {
    const state = await this.store.cancel(id, Date.now());
    const local = this.#running.get(id);
    if (state === 'running' && local) this.#stop(local, 'cancelled');
    if (state === 'cancelled') this.#finished.emit(id);
    return state;
  }

  /** Resolves with the job once it is done, failed or cancelled, whichever instance ran it. */
  async waitFor(id: string): Promise<JobRecord> {
    for (;;) {
      const job = await this.store.get(id);
      if (!job) throw new Error(`Job ${id} no longer exists`);
      if (isFinished(job.state)) return job;
      if (this.#stopping) {
        throw new HttpError(503, 'This server is shutting down; the job goes on and its state is at GET /api/jobs/' + id, {
          i18nMessage: 'error.jobs.shuttingDown',
        });
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#finished.off(id, done);
          this.#finished.off(STOPPING, done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(this.settings.pollMs, 1000));
        this.#finished.once(id, done);
        this.#finished.once(STOPPING, done);
      });
    }
  }

  /** Enqueues and waits: the synchronous endpoints (train, import, export, parse) keep their response shape. */
  async run(input: EnqueueJob): Promise<{ job: JobRecord | null; result: unknown }> {
    const queued = await this.enqueue(input);
    if (!queued) return { job: null, result: undefined };
    return { job: queued, result: await this.outcome(queued.id) };
  }

  /** The job's result once done; its stored error (as the HttpError it was) once failed or cancelled. */
  async outcome(id: string): Promise<unknown> {
    const job = await this.waitFor(id);
    if (job.state === 'done') return job.result;
    throw httpErrorOf(job.error ?? (job.state === 'cancelled' ? CANCELLED_ERROR : LOST_ERROR));
  }

  /** Jobs running on this instance now. */
  get runningCount(): number {
    return this.#running.size;
  }

  /** 'running' between the server's start and its close: the readiness probe's job check. */
  get workerState(): 'running' | 'stopped' {
    return this.#started && !this.#stopping ? 'running' : 'stopped';
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch((error) => this.log.warn({ err: error }, 'job queue housekeeping failed')), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.settings.heartbeatMs, () => this.#heartbeat());
    every(Math.max(250, Math.min(this.settings.heartbeatMs, this.settings.staleMs / 3)), () => this.#reap());
    if (this.#schedules.length > 0) {
      void this.#enqueueSchedules().catch((error) => this.log.warn({ err: error }, 'scheduled job not queued'));
      every(Math.min(60_000, ...this.#schedules.map((s) => s.everyMs)), () => this.#enqueueSchedules());
    }
    this.#pollSoon();
  }

  /** Graceful stop: running jobs are aborted and put back in the queue for another instance. */
  async stop(): Promise<void> {
    this.#halt();
    this.#stopping = true;
    this.#finished.emit(STOPPING);
    const running = [...this.#running.values()];
    for (const job of running) this.#stop(job, 'shutdown');
    await Promise.race([Promise.all(running.map((job) => job.settled)), delay(SHUTDOWN_GRACE_MS)]);
  }

  /** Test hook for a crash: timers stop and running jobs are forgotten, their rows left as they are. */
  abandon(): void {
    this.#halt();
    for (const job of this.#running.values()) this.#stop(job, 'lost');
    this.#running.clear();
  }

  #halt(): void {
    this.#started = false;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    if (this.#pollTimer) clearTimeout(this.#pollTimer);
    this.#pollTimer = null;
  }

  #pollSoon(delayMs = 0): void {
    if (!this.#started) return;
    if (this.#pollTimer) clearTimeout(this.#pollTimer);
    this.#pollTimer = setTimeout(() => void this.#poll(), delayMs);
    this.#pollTimer.unref();
  }

  async #poll(): Promise<void> {
    if (this.#polling || !this.#started) return;
    this.#polling = true;
    try {
      while (this.#started && this.#running.size < this.settings.concurrency) {
        const job = await this.store.claim([...this.#kinds.keys()], this.worker, Date.now());
        if (!job) break;
        this.#execute(job);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'could not claim a job');
    } finally {
      this.#polling = false;
      this.#pollSoon(this.settings.pollMs);
    }
  }

  #execute(job: JobRecord): void {
    const kind = this.#kinds.get(job.kind)!;
    const controller = new AbortController();
    const entry: Running = { controller, reason: null, settled: Promise.resolve() };
    this.#running.set(job.id, entry);
    let lastWrite = 0;
    let pending: JobProgress | null = null;
    let writing = false;
    // Awaited before the job ends: a throttled write still in flight would otherwise land after
    // finish() (on another connection of a PostgreSQL pool), find the job no longer running, and be
    // lost, leaving the finished job at 0/0.
    let inFlight: Promise<void> = Promise.resolve();
    const write = () => {
      if (!pending || writing) return;
      const progress = pending;
      pending = null;
      writing = true;
      lastWrite = Date.now();
      inFlight = this.store
        .progress(job.id, this.worker, progress)
        .catch((error) => this.log.warn({ err: error, job: job.id }, 'job progress not stored'))
        .finally(() => {
          writing = false;
        });
    };
    const run: JobRun = {
      id: job.id,
      payload: job.payload,
      context: { ...job.context, roleId: job.context.roleId ?? null },
      attempt: job.attempts,
      signal: controller.signal,
      log: this.log.child({ job: job.id, kind: job.kind, ...(job.context.requestId ? { requestId: job.context.requestId } : {}) }),
      progress: (done, total, phase = null) => {
        if (controller.signal.aborted) throw new JobStopped(entry.reason ?? 'cancelled');
        pending = { done, total, phase };
        if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) write();
      },
    };
    const started = performance.now();
    entry.settled = (async () => {
      let outcome = 'done';
      try {
        const result = await kind.run(run);
        if (entry.reason) throw new JobStopped(entry.reason);
        await inFlight;
        // The last figures reported, which the throttle may have held back.
        if (pending) await this.store.progress(job.id, this.worker, pending);
        await this.store.finish(job.id, this.worker, 'done', { result: result ?? null }, Date.now());
      } catch (error) {
        outcome = entry.reason ?? 'failed';
        await inFlight;
        await this.#failed(job, kind, entry, error);
      } finally {
        jobDuration.observe({ kind: job.kind, outcome }, (performance.now() - started) / 1000);
        this.#running.delete(job.id);
        this.#finished.emit(job.id);
        this.#pollSoon();
      }
    })().catch((error) => this.log.error({ err: error, job: job.id }, 'job bookkeeping failed'));
  }

  async #failed(job: JobRecord, kind: JobKind, entry: Running, error: unknown): Promise<void> {
    const reason = entry.reason;
    if (reason === 'lost') return;
    if (reason === 'cancelled') {
      await this.store.finish(job.id, this.worker, 'cancelled', { error: CANCELLED_ERROR }, Date.now());
      return;
    }
    if (reason === 'shutdown') {
      await this.store.requeue(job.id, this.worker, Date.now(), null);
      return;
    }
    const described = jobErrorOf(error);
    if (described.status >= 500) this.log.error({ err: error, job: job.id, kind: job.kind }, 'job failed');
    if (kind.retryOnError && described.status >= 500 && job.attempts < job.maxAttempts) {
      await this.store.requeue(job.id, this.worker, Date.now() + this.#backoff(job.attempts), described);
      return;
    }
    if (await this.store.finish(job.id, this.worker, 'failed', { error: described }, Date.now())) {
      await kind.onFailed?.(job, described).catch((cause) => this.log.error({ err: cause, job: job.id }, 'job failure hook failed'));
    }
  }

  #backoff(attempt: number): number {
    return Math.min(MAX_BACKOFF_MS, this.settings.backoffMs * 2 ** Math.max(0, attempt - 1));
  }

  #stop(entry: Running, reason: StopReason): void {
    if (entry.reason) return;
    entry.reason = reason;
    entry.controller.abort(new JobStopped(reason));
  }

  async #heartbeat(): Promise<void> {
    const ids = [...this.#running.keys()];
    if (ids.length === 0) return;
    const held = await this.store.heartbeat(ids, this.worker, Date.now());
    const still = new Map(held.map((row) => [row.id, row.cancelRequested]));
    for (const id of ids) {
      const entry = this.#running.get(id);
      if (!entry) continue;
      // Reaped while this instance stalled: another instance owns it now.
      if (!still.has(id)) this.#stop(entry, 'lost');
      else if (still.get(id)) this.#stop(entry, 'cancelled');
    }
  }

  async #reap(): Promise<void> {
    const now = Date.now();
    const before = now - this.settings.staleMs;
    for (const job of await this.store.stale(before)) {
      if (this.#running.has(job.id)) continue;
      const kind = this.#kinds.get(job.kind);
      if (job.attempts < job.maxAttempts && !job.cancelRequested) {
        if (await this.store.reap(job.id, before, { runAfter: now + this.#backoff(job.attempts) })) {
          this.log.warn({ job: job.id, kind: job.kind, worker: job.worker }, 'job lost its instance; queued again');
          this.#pollSoon();
        }
      } else {
        const error = job.cancelRequested ? CANCELLED_ERROR : LOST_ERROR;
        if (await this.store.reap(job.id, before, { error, now })) {
          this.log.warn({ job: job.id, kind: job.kind, worker: job.worker }, 'job lost its instance; marked failed');
          this.#finished.emit(job.id);
          await kind?.onFailed?.(job, error).catch((cause) => this.log.error({ err: cause, job: job.id }, 'job failure hook failed'));
        }
      }
    }
  }

  async #enqueueSchedules(): Promise<void> {
    const now = Date.now();
    for (const { kind, everyMs } of this.#schedules) {
      const slot = Math.floor(now / everyMs);
      await this.enqueue({ kind, id: `${kind}:${slot}`, payload: null, context: { userId: null, tenantId: null, permissions: [] } });
    }
  }
}

function contextOf(context: JobContext, requestId: string | null = null): JobContext {
  return {
    userId: context.userId ?? null,
    tenantId: context.tenantId ?? null,
    permissions: [...context.permissions],
    roleId: context.roleId ?? null,
    ...(requestId ? { requestId } : {}),
  };
}

/** Any thrown error as a stored job error: HttpError-like errors keep their status and body, the rest is a 500. */
export function jobErrorOf(error: unknown): JobError {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      message: error.message,
      ...(error.i18nMessage ? { i18nMessage: error.i18nMessage } : {}),
      ...(error.inputErrors ? { inputErrors: error.inputErrors } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && error instanceof Error) {
    return { status, message: error.message };
  }
  return { status: 500, message: 'The job failed unexpectedly', i18nMessage: 'error.server' };
}

export function httpErrorOf(error: JobError): HttpError {
  return new HttpError(error.status, error.message, {
    ...(error.i18nMessage ? { i18nMessage: error.i18nMessage } : {}),
    ...(error.inputErrors ? { inputErrors: error.inputErrors } : {}),
    ...(error.details ? { details: error.details } : {}),
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
