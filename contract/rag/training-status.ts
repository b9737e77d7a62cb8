import type { JobState } from '../jobs/job-view.ts';
import type { TrainingProblem } from './training-problem.ts';

/**
 * Where one knowledge's training stands, as read from the job queue (server/rag/api/training-jobs.ts):
 * every instance answers the same.
 */
export interface TrainingStatus {
  /** idle: no training known (see `trainedAt` for the index's own record). A queued training is `running`. */
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
  /** The training job (GET /api/jobs/:id) and its own state (queued, running, done, failed, cancelled). */
  jobId?: string;
  jobState?: JobState;
}

/**
 * GET /api/rag/status/:id, polled by the console while a training runs: the job's status plus
 * what the index and the knowledge record hold.
 */
export interface KnowledgeTrainingStatus extends TrainingStatus {
  chunks: number;
  trainedAt: string | null;
  /** The last outcome stored on the knowledge record (null: never trained or cleared). */
  outcome: 'trained' | 'warning' | 'failed' | null;
}
