import type { TrainingProblem } from './training-outcome.ts';

/** What the last training recorded for one source (knowledge.trainedSources, manifests/knowledge.json). */
export interface TrainedSource {
  source: string;
  name: string;
  chunks: number;
  /** The source's updatedAt when it was trained. */
  version: string | null;
}

/** The parts of a knowledge source record the state needs. */
export interface SourceSummary {
  _id: string;
  name: string;
  type?: string | null;
  updatedAt?: string | null;
}

/**
 * Where one source of a knowledge base stands: waiting for a training (never trained, added or
 * changed since the last one), in the index with N fragments, or left out with the reason.
 */
export type SourceState =
  | { kind: 'pending'; why: 'notTrained' | 'added' | 'changed' }
  | { kind: 'indexed'; chunks: number | null }
  | { kind: 'problem'; reason: string; message: string };

type KnowledgeRecord = Record<string, unknown>;

function trainedSourcesOf(knowledge: KnowledgeRecord): TrainedSource[] | null {
  // Absent on bases trained before trainedSources existed: their sources fall back to timestamps.
  return Array.isArray(knowledge.trainedSources) ? (knowledge.trainedSources as TrainedSource[]) : null;
}

function wasTrained(knowledge: KnowledgeRecord): boolean {
  return typeof knowledge.trainedAt === 'string' && knowledge.trainedAt !== '';
}

export function sourceState(knowledge: KnowledgeRecord, source: SourceSummary): SourceState {
  if (!wasTrained(knowledge)) return { kind: 'pending', why: 'notTrained' };
  const trained = trainedSourcesOf(knowledge);
  if (trained === null) {
    const changed = typeof source.updatedAt === 'string' && source.updatedAt > String(knowledge.trainedAt);
    return changed ? { kind: 'pending', why: 'changed' } : { kind: 'indexed', chunks: null };
  }
  const entry = trained.find((item) => item.source === source._id);
  if (!entry) return { kind: 'pending', why: 'added' };
  if ((entry.version ?? null) !== (source.updatedAt ?? null)) return { kind: 'pending', why: 'changed' };
  const problems = Array.isArray(knowledge.trainingProblems) ? (knowledge.trainingProblems as Array<TrainingProblem & { sourceId?: string }>) : [];
  const problem = problems.find((item) => item.sourceId === source._id);
  if (problem) return { kind: 'problem', reason: problem.reason, message: problem.message };
  return { kind: 'indexed', chunks: entry.chunks };
}

/**
 * Whether the index is behind the knowledge base: a source added, changed or removed since the
 * last training, or the base's own texts, files or links edited after it. A base never trained
 * needs it as soon as it has something to index.
 */
export function needsRetraining(knowledge: KnowledgeRecord, sources: readonly SourceSummary[]): boolean {
  const ownContent = ['texts', 'files', 'urls'].some((field) => Array.isArray(knowledge[field]) && (knowledge[field] as unknown[]).length > 0);
  if (!wasTrained(knowledge)) return sources.length > 0 || ownContent;
  if (sources.some((source) => sourceState(knowledge, source).kind === 'pending')) return true;
  const trained = trainedSourcesOf(knowledge);
  const current = new Set(sources.map((source) => source._id));
  if (trained !== null && trained.some((item) => !current.has(item.source))) return true;
  return ownContent && typeof knowledge.updatedAt === 'string' && knowledge.updatedAt > String(knowledge.trainedAt);
}

/** Ids of an array.ref as the API returns it (populated { _id, name } or a plain id). */
export function refIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((ref) => (typeof ref === 'string' ? ref : ref && typeof ref === 'object' ? (ref as { _id?: unknown })._id : null))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}
