import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { HttpError } from '../http/http-error.ts';
import { RagError } from '../rag/rag-error.ts';
import type { CpuTaskInput, CpuTaskName, CpuTaskOutput } from './cpu-task-handlers.ts';
import type { CpuTaskOutcome } from './cpu-worker.ts';

/** Heap of one pool worker: what a hostile file can make a parser allocate stops here, not in the server. */
export const CPU_WORKER_HEAP_MB = 512;
/** Longest a task may run before its worker is stopped. */
export const CPU_TASK_TIMEOUT_MS = 60_000;
/** Tasks waiting for a worker at most; past it the request is a 503 (the queue must not grow with the load). */
export const CPU_QUEUE_MAX = 32;

/**
 * Why a task did not produce its result, for the caller to turn into its own clear error
 * (a document "could not be read", an import file "could not be read"): `busy` (the queue is
 * full), `timeout`, `outOfMemory` (the worker's heap limit) or `crashed` (the worker stopped).
 */
export class CpuTaskError extends Error {
  constructor(
    readonly reason: 'busy' | 'timeout' | 'outOfMemory' | 'crashed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CpuTaskError';
  }
}

export interface CpuPoolOptions {
  /** The worker module (tests: a fixture); default: the bundle's or the sources' entry. */
  filename?: string;
  maxThreads?: number;
  maxQueue?: number;
  heapMb?: number;
  timeoutMs?: number;
}

/**
 * A pool of worker threads for CPU-heavy work (HTML/Markdown parsing, chunking, reading import
 * files): one thread per core but one, created on first use and stopped when idle, each with its
 * own heap limit, so the event loop that answers /api/health and every other request keeps a core
 * to itself. (A lower scheduling priority for the workers, niceness +10, was tried first: on a
 * machine shared with other busy processes it can starve them of CPU altogether.) Word and PDF
 * documents keep their own one-off workers (server/rag/parse/parse-in-worker.ts).
 */
export class CpuPool {
  readonly #pool: Piscina;
  readonly #timeoutMs: number;
  readonly #heapMb: number;
  /** Tasks running or waiting, bounded here: piscina leaves tasks with an abort signal (all of ours) outside its maxQueue. */
  readonly #capacity: number;
  readonly #maxQueue: number;
  #pending = 0;

  constructor(options: CpuPoolOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? CPU_TASK_TIMEOUT_MS;
    this.#heapMb = options.heapMb ?? CPU_WORKER_HEAP_MB;
    // One core is left to the event loop: on 2 cores, 1 worker.
    const threads = options.maxThreads ?? Math.max(1, os.availableParallelism() - 1);
    this.#maxQueue = options.maxQueue ?? CPU_QUEUE_MAX;
    this.#capacity = threads + this.#maxQueue;
    this.#pool = new Piscina({
      filename: options.filename ?? defaultWorkerFile(),
      minThreads: 0,
      maxThreads: threads,
      maxQueue: this.#maxQueue,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb },
    });
  }

  /** Runs one task (transferring `transfer` instead of copying it); the worker's refusals are rethrown as they were thrown. */
  async run<N extends CpuTaskName>(name: N, input: CpuTaskInput<N>, transfer: Transferable[] = []): Promise<CpuTaskOutput<N>> {
    if (this.#pending >= this.#capacity) {
      throw new CpuTaskError('busy', `The server is busy with ${this.#maxQueue} other large files waiting; try again in a moment`);
    }
    let outcome: CpuTaskOutcome;
    this.#pending += 1;
    try {
      outcome = await this.#pool.run({ name, input }, { transferList: transfer as never, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      throw this.#failure(error);
    } finally {
      this.#pending -= 1;
    }
    if (outcome.ok) return outcome.value as CpuTaskOutput<N>;
    const { failure } = outcome;
    if (failure.kind === 'rag') throw new RagError(failure.code, failure.message, { field: failure.field });
    throw new HttpError(failure.statusCode, failure.message, { i18nMessage: failure.i18nMessage });
  }

  /** Tasks waiting and threads running now (for figures and tests). */
  get stats(): { queued: number; threads: number } {
    return { queued: this.#pool.queueSize, threads: this.#pool.threads.length };
  }

  async close(): Promise<void> {
    await this.#pool.close({ force: true });
  }

  #failure(error: unknown): CpuTaskError {
    const err = error as NodeJS.ErrnoException;
    const message = err?.message ?? String(error);
    if (message === 'Task queue is at limit') {
      return new CpuTaskError('busy', `The server is busy with ${this.#maxQueue} other large files waiting; try again in a moment`, { cause: error });
    }
    if (err?.name === 'AbortError' || err?.name === 'TimeoutError') {
      return new CpuTaskError('timeout', `the work did not finish within ${this.#timeoutMs / 1000} s`, { cause: error });
    }
    if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new CpuTaskError('outOfMemory', `it needs more than ${this.#heapMb} MB of memory`, { cause: error });
    }
    return new CpuTaskError('crashed', `the worker stopped (${message})`, { cause: error });
  }
}

/** The bundle (dist-server/main.mjs) has its worker beside it; the sources go through tsx. */
function defaultWorkerFile(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(fromSources ? './cpu-worker-tsx.mjs' : './cpu-worker.mjs', import.meta.url));
}

let shared: CpuPool | null = null;

/** The server's one pool, created on first use. */
export function cpuPool(): CpuPool {
  shared ??= new CpuPool();
  return shared;
}

/** A CpuTaskError `busy` as the API's 503 (any other reason is for the caller to word). */
export function serverBusyError(error: CpuTaskError): HttpError {
  return new HttpError(503, error.message, { i18nMessage: 'error.serverBusy' });
}
