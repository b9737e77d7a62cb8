import type { TrainingProblem } from '../train/plan-training.ts';

/**
 * Where one knowledge's training stands in this process, as GET /api/rag/status/:id reports it
 * (the route adds the last outcome stored on the knowledge record, see train/training-record.ts).
 */
export interface TrainingStatus {
  /** idle: never trained in this process (see `trainedAt` for the index's own record). */
  state: 'idle' | 'running' | 'done' | 'failed';
  /** planning: reading sources, files and pages; embedding / indexing: `done` of `total`. */
  phase: 'planning' | 'embedding' | 'indexing' | null;
  done: number;
  total: number;
  error?: string;
  i18nMessage?: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** What contributed nothing (empty text, dead link...), from the last training. */
  problems: TrainingProblem[];
}

/**
 * The trainings of this process by knowledge id: at most one running per knowledge (a second one
 * is refused with 409 before any work starts), the outcome of the last one kept for the status
 * route. Several API instances each know only their own trainings (see server/rag/README.md).
 */
export class TrainingJobs {
  readonly #jobs = new Map<string, TrainingStatus>();

  get(id: string): TrainingStatus {
    return this.#jobs.get(id) ?? { state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, problems: [] };
  }

  isRunning(id: string): boolean {
    return this.#jobs.get(id)?.state === 'running';
  }

  /** Returns false when one is already running for `id`. */
  start(id: string): boolean {
    if (this.isRunning(id)) return false;
    this.#jobs.set(id, { state: 'running', phase: 'planning', done: 0, total: 0, startedAt: new Date().toISOString(), finishedAt: null, problems: [] });
    return true;
  }

  progress(id: string, phase: TrainingStatus['phase'], done: number, total: number): void {
    const job = this.#jobs.get(id);
    if (job?.state === 'running') Object.assign(job, { phase, done, total });
  }

  finish(id: string, problems: TrainingStatus['problems']): void {
    const job = this.#jobs.get(id);
    if (job) Object.assign(job, { state: 'done', phase: null, done: job.total, finishedAt: new Date().toISOString(), problems });
  }

  fail(id: string, error: { message: string; i18nMessage?: string }): void {
    const job = this.#jobs.get(id);
    if (!job) return;
    Object.assign(job, { state: 'failed', phase: null, error: error.message, finishedAt: new Date().toISOString() });
    if (error.i18nMessage) job.i18nMessage = error.i18nMessage;
  }

  /** After a clear the last outcome no longer describes the (empty) index. */
  forget(id: string): void {
    if (!this.isRunning(id)) this.#jobs.delete(id);
  }
}
