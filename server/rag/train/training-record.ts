import type { Database } from '../../db/database.ts';
import type { EntityService } from '../../entities/entity-service.ts';
import { system } from '../../entities/system-context.ts';
import type { TrainedSource, TrainingProblem } from './plan-training.ts';

/** trainingState of a knowledge record (manifests/knowledge.json); null = never trained. */
export type TrainingOutcome = 'trained' | 'warning' | 'failed';

/**
 * The outcome of the last training, as the knowledge record's read-only fields trainingState,
 * trainedAt, trainedChunks and trainingProblems (manifests/knowledge.json). They live on the
 * record so every list, export and GraphQL read has them without one status call per row, they
 * survive a restart and are the same on every instance; clients can never write them (readonly
 * fields are dropped from create, update and import bodies). Written through the service as
 * system() (which may set read-only fields), with `touch: false`: a training is not an edit of
 * the record, so updatedAt stays as the user left it.
 */
export class TrainingRecord {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  /** A training that finished: what the index now holds and what contributed nothing. */
  succeeded(
    id: string,
    result: { trainedAt: string | null; chunks: number; problems: readonly TrainingProblem[]; sources?: readonly TrainedSource[] },
  ): Promise<void> {
    return this.write(id, {
      trainingState: result.problems.length > 0 ? 'warning' : 'trained',
      trainedAt: result.trainedAt,
      trainedChunks: result.chunks,
      trainingProblems: result.problems.map(({ source, message, reason, sourceId }) => ({ source, message, reason, ...(sourceId ? { sourceId } : {}) })),
      // Per source: what it gave and the updatedAt it had, so an edit since shows as "needs retraining".
      trainedSources: (result.sources ?? []).map(({ source, name, chunks, version }) => ({ source, name, chunks, version })),
    });
  }

  /**
   * A training that failed: the index still serves the previous generation (the swap is atomic),
   * so trainedAt and trainedChunks keep describing it; the failure is the one problem.
   */
  failed(id: string, error: { message: string; i18nMessage?: string }): Promise<void> {
    return this.write(id, {
      trainingState: 'failed',
      trainingProblems: [{ source: '', message: error.message, reason: error.i18nMessage ?? 'error.server' }],
    });
  }

  /** After a clear the index is empty: not trained. */
  cleared(id: string): Promise<void> {
    return this.write(id, { trainingState: null, trainedAt: null, trainedChunks: null, trainingProblems: [], trainedSources: [] });
  }

  private async write(id: string, values: Record<string, unknown>): Promise<void> {
    try {
      await this.service.update('knowledge', system(), id, values, { touch: false });
    } catch (error) {
      // Deleted while it trained: there is no record left to describe.
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
  }
}
