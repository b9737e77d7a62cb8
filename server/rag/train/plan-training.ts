import { chunkOffThread } from '../chunk/chunk-off-thread.ts';
import type { ChunkOptions } from '../chunk/chunk-text.ts';
import { sha256Hex } from '../chunk/sha256-hex.ts';
import { RagError } from '../rag-error.ts';
import type { SourcedChunk } from '../rag-types.ts';
import type { TrainingProblem } from '../../../contract/rag/training-problem.ts';

/** The parts of a stored file record (docs/product-rules.md#entities "Uploaded file") the planner passes on. */
export interface StoredFileRef {
  filename?: string;
  filepath: string;
  mimetype?: string;
  size?: number;
  url?: string;
}

/** A KnowledgeSource record as stored (only what training reads). */
export interface TrainingSource {
  _id?: string;
  name: string;
  type: 'file' | 'link' | 'text' | 'chunk';
  text?: string | null;
  sourceText?: string | null;
  chunks?: Array<{ content: string; hash?: string }> | null;
  /** Recorded with the training, so the console can tell a source edited since (needs retraining). */
  updatedAt?: string | null;
  /** The source's language (ISO 639-1), or "auto"/absent: the knowledge base's, else detected per chunk. */
  language?: string | null;
}

/** A Knowledge record as stored (only what training reads). */
export interface TrainingKnowledge {
  /** The base's language (ISO 639-1), or "auto"/absent: detected per chunk. */
  language?: string | null;
  sources?: Array<string | { _id: string }> | null;
  texts?: Array<{ title?: string | null; content: string }> | null;
  files?: Array<{ title?: string | null; file: StoredFileRef }> | null;
  urls?: Array<{ title?: string | null; url: string }> | null;
}

export interface TrainingDeps {
  /** Text of a stored upload, e.g. (f) => parseStoredFile(uploadsDir, f.filepath).then((d) => d.content). */
  parseFile: (file: StoredFileRef) => Promise<string>;
  /** Text of a web page, e.g. (url) => parseUrl(url).then((d) => d.content). */
  parseUrl: (url: string) => Promise<string>;
  chunkOptions?: ChunkOptions;
}

// A training's problems are the wire contract's (contract/rag/training-problem.ts).
export type { TrainingProblem };

/**
 * What one knowledge source gave to a training: its fragments and the updatedAt it had then. A
 * source whose updatedAt differs now changed after the training (the console's "needs retraining").
 */
export interface TrainedSource {
  source: string;
  name: string;
  chunks: number;
  version: string | null;
}

/** Locale keys of problems that are not a RagError. */
export const PROBLEM_REASONS = {
  empty: 'knowledge.problem.empty',
  sourceNotFound: 'knowledge.problem.sourceNotFound',
  unreadableFile: 'error.rag.unreadableFile',
  unreachableUrl: 'error.rag.urlUnreachable',
} as const;

export interface TrainingPlan {
  chunks: SourcedChunk[];
  /** What contributed nothing and why (missing source, empty text, unreadable file or page). */
  problems: TrainingProblem[];
  /** Each referenced source that exists, in order, with the fragments it gave. */
  sources: TrainedSource[];
}

/** A failed parse as a problem: the RagError's own key (refused link, timeout...) or `fallback`. */
function problemOf(source: string, error: unknown, fallback: string): TrainingProblem {
  const message = error instanceof Error ? error.message : String(error);
  return { source, message, reason: error instanceof RagError ? error.i18nMessage : fallback };
}

/**
 * Everything a knowledge base should contain, in order: its sources (a "chunk" source, or any
 * source with chunks, as edited, chunk for chunk; others chunked from their edited text, else
 * their source text), then its own
 * texts, files and URLs, parsed through the injected functions and chunked. Each chunk carries the
 * label of where it came from and the sha256 of its content. A file or page that fails is reported
 * in `problems` and the rest still trains: one dead link should not block a knowledge base.
 */
export async function planTraining(
  knowledge: TrainingKnowledge,
  sources: readonly TrainingSource[],
  deps: TrainingDeps,
): Promise<TrainingPlan> {
  const chunks: SourcedChunk[] = [];
  const problems: TrainingPlan['problems'] = [];
  const trained: TrainedSource[] = [];
  /** Adds the chunks of `text` (long texts chunked in the worker pool); returns how many (0 and a problem for an empty text). */
  const chosen = (language: string | null | undefined) => (language && language !== 'auto' ? language : null);
  const baseLanguage = chosen(knowledge.language);
  const addText = async (text: string | null | undefined, source: string, sourceId?: string, language = baseLanguage): Promise<number> => {
    if (!text || text.trim() === '') {
      problems.push({ source, message: 'no text to index', reason: PROBLEM_REASONS.empty, ...(sourceId ? { sourceId } : {}) });
      return 0;
    }
    const split = await chunkOffThread(text, deps.chunkOptions);
    for (const chunk of split) chunks.push({ content: chunk.content, hash: chunk.hash, source, ...(language ? { language } : {}) });
    return split.length;
  };

  const byId = new Map(sources.filter((s) => s._id).map((s) => [s._id as string, s]));
  const referenced = (knowledge.sources ?? []).map((ref) => (typeof ref === 'string' ? ref : ref._id));
  const ordered = referenced.length ? referenced.map((id) => byId.get(id) ?? id) : sources;
  for (const source of ordered) {
    if (typeof source === 'string') {
      problems.push({ source, message: 'knowledge source not found', reason: PROBLEM_REASONS.sourceNotFound, sourceId: source });
      continue;
    }
    const sourceId = source._id ?? '';
    const record = (count: number) => trained.push({ source: sourceId, name: source.name, chunks: count, version: source.updatedAt ?? null });
    // A chunk source is its chunks. Any other source that was chunked in the form (Recursive chunk,
    // then perhaps edited chunk by chunk) is indexed as edited; unchunked ones from their text.
    const edited = (source.chunks ?? []).filter((chunk) => chunk?.content?.trim());
    if (source.type === 'chunk' || edited.length > 0) {
      const language = chosen(source.language) ?? baseLanguage;
      for (const chunk of edited) chunks.push({ content: chunk.content, hash: sha256Hex(chunk.content), source: source.name, ...(language ? { language } : {}) });
      if (edited.length === 0) problems.push({ source: source.name, message: 'no text to index', reason: PROBLEM_REASONS.empty, ...(sourceId ? { sourceId } : {}) });
      record(edited.length);
      continue;
    }
    record(await addText(source.text?.trim() ? source.text : source.sourceText, source.name, sourceId || undefined, chosen(source.language) ?? baseLanguage));
  }

  for (const [index, text] of (knowledge.texts ?? []).entries()) await addText(text.content, text.title?.trim() || `texts[${index}]`);

  for (const { file } of knowledge.files ?? []) {
    const label = file.filename || file.filepath;
    try {
      await addText(await deps.parseFile(file), label);
    } catch (error) {
      problems.push(problemOf(label, error, PROBLEM_REASONS.unreadableFile));
    }
  }
  for (const { url } of knowledge.urls ?? []) {
    try {
      await addText(await deps.parseUrl(url), url);
    } catch (error) {
      problems.push(problemOf(url, error, PROBLEM_REASONS.unreachableUrl));
    }
  }
  return { chunks, problems, sources: trained };
}
