import type { JobRecord } from '../../jobs/job-record.ts';
import type { TrainingProblem } from '../../../contract/rag/training-problem.ts';
import type { TrainingStatus } from '../../../contract/rag/training-status.ts';

/** The singleton key of a knowledge's training: one queued or running per knowledge, across instances. */
export function trainingKey(knowledgeId: string): string {
  return `train:${knowledgeId}`;
}

const IDLE: TrainingStatus = { state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, problems: [] };
const PHASES = new Set(['planning', 'embedding', 'indexing']);

/**
 * The status a training job gives. A finished job only counts while the record still has an
 * outcome (`recorded`): after a clear the last job no longer describes the (empty) index. A
 * cancelled training changed nothing, so the record's outcome speaks.
 */
export function trainingStatusOf(job: JobRecord | null, recorded: boolean): TrainingStatus {
  if (!job) return IDLE;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const ids = { jobId: job.id, jobState: job.state };
  const base = { startedAt: iso(job.startedAt ?? job.createdAt), finishedAt: iso(job.finishedAt) };
  if (job.state === 'queued' || job.state === 'running') {
    const phase = job.progress.phase && PHASES.has(job.progress.phase) ? (job.progress.phase as TrainingStatus['phase']) : 'planning';
    return { ...IDLE, ...base, ...ids, state: 'running', phase, done: job.progress.done, total: job.progress.total };
  }
  if (!recorded || job.state === 'cancelled') return { ...IDLE, ...ids };
  if (job.state === 'failed') {
    return {
      ...IDLE,
      ...base,
      ...ids,
      state: 'failed',
      error: job.error?.message ?? 'Training failed',
      ...(job.error?.i18nMessage ? { i18nMessage: job.error.i18nMessage } : {}),
    };
  }
  const problems = (job.result as { problems?: TrainingProblem[] } | null)?.problems ?? [];
  return { ...IDLE, ...base, ...ids, state: 'done', done: job.progress.total, total: job.progress.total, problems };
}
