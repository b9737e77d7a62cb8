import { isApiError } from '../../runtime/transport/api-error.ts';
import type { TrainingProblem } from '../../contract/rag/training-problem.ts';

export type { TrainingProblem };

/** The read-only training fields of a knowledge record (manifests/knowledge.json). */
export interface TrainingOutcome {
  state: 'trained' | 'warning' | 'failed' | null;
  trainedAt: string | null;
  chunks: number | null;
  problems: TrainingProblem[];
}

export function trainingOutcome(row: Record<string, unknown>): TrainingOutcome {
  const state = row.trainingState;
  return {
    state: state === 'trained' || state === 'warning' || state === 'failed' ? state : null,
    trainedAt: typeof row.trainedAt === 'string' ? row.trainedAt : null,
    chunks: typeof row.trainedChunks === 'number' ? row.trainedChunks : null,
    problems: Array.isArray(row.trainingProblems) ? (row.trainingProblems as TrainingProblem[]) : [],
  };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** "source: reason (server detail)", translated; the detail is the server's own English text. */
export function problemText(problem: TrainingProblem, t: Translate): string {
  const reason = t(problem.reason || 'error.unknown');
  const head = problem.source ? `${problem.source}: ${reason}` : reason;
  return problem.message && problem.message !== reason ? `${head} (${problem.message})` : head;
}

/**
 * What a failed call says to the user: the server's i18nMessage (or the first field reason)
 * translated, else the transport's own key (error.network, error.server...).
 */
export function failureMessage(error: unknown, t: Translate): string {
  if (isApiError(error)) {
    const body = (error.body ?? {}) as { i18nMessage?: unknown; message?: unknown };
    if (typeof body.i18nMessage === 'string' && body.i18nMessage !== '') return t(body.i18nMessage);
    const firstReason = Object.values(error.inputErrors)[0]?.[0];
    if (firstReason) return t(firstReason);
    return t(error.message);
  }
  return t('error.unknown');
}
