import { entities } from '../../generated/entities.ts';
import { sha256Hex } from '../chunk/sha256-hex.ts';
import { RagError } from '../rag-error.ts';
import type { SearchOptions, SourcedChunk } from '../rag-types.ts';

// What every RetrievalIndex accepts, checked the same way whatever the database behind it.

/** A knowledge model field's numeric range, read from the manifest (one source for the limits). */
function knowledgeRange(name: string): { min: number; max: number } {
  const field = entities.knowledge?.fields.find((f) => f.name === name);
  const min = field?.validation.min;
  const max = field?.validation.max;
  if (typeof min !== 'number' || typeof max !== 'number') {
    throw new Error(`manifests/knowledge.json: field "${name}" needs validation.min and validation.max (the search limits come from them)`);
  }
  return { min, max };
}

/** maxResults and scoreThreshold accept exactly what a knowledge record may hold (manifests/knowledge.json). */
export const MAX_RESULTS_RANGE = knowledgeRange('maxResults');
export const SCORE_THRESHOLD_RANGE = knowledgeRange('scoreThreshold');
/** Candidates HybridIndex takes from each retriever before fusion, per result asked for. */
export const CANDIDATES_PER_RESULT = 4;

export const MAX_QUERY_LENGTH = 4000;
/** Unique query terms beyond this add cost, not precision. */
export const MAX_QUERY_TERMS = 64;
const MAX_KNOWLEDGE_ID_LENGTH = 200;

export function checkKnowledgeId(knowledgeId: unknown): void {
  if (typeof knowledgeId !== 'string' || knowledgeId.length === 0 || knowledgeId.length > MAX_KNOWLEDGE_ID_LENGTH) {
    throw new RagError('invalidInput', 'knowledge id must be a non-empty string of at most 200 characters', { field: 'id' });
  }
}

/** The arguments of RetrievalIndex.search, refused with a 4xx naming the bad one. */
export function checkSearchInput(knowledgeId: unknown, query: unknown, options: SearchOptions): SearchOptions {
  checkKnowledgeId(knowledgeId);
  const { maxResults, scoreThreshold } = options;
  const { min, max } = MAX_RESULTS_RANGE;
  const most = options.candidates ? max * CANDIDATES_PER_RESULT : max;
  if (!Number.isInteger(maxResults) || maxResults < min || maxResults > most) {
    throw new RagError('invalidInput', `maxResults must be an integer from ${min} to ${most}; got ${String(maxResults)}`, { field: 'maxResults' });
  }
  const score = SCORE_THRESHOLD_RANGE;
  if (typeof scoreThreshold !== 'number' || !(scoreThreshold >= score.min && scoreThreshold <= score.max)) {
    throw new RagError('invalidInput', `scoreThreshold must be a number from ${score.min} to ${score.max}; got ${String(scoreThreshold)}`, { field: 'scoreThreshold' });
  }
  if (typeof query !== 'string') throw new RagError('invalidInput', 'q must be a string', { field: 'q' });
  if (query.length > MAX_QUERY_LENGTH) {
    throw new RagError('invalidInput', `q is ${query.length} characters; the limit is ${MAX_QUERY_LENGTH}`, { field: 'q' });
  }
  return options;
}

/** Chunk identity is the hash of its content; the first source naming a content wins. */
export function uniqueByHash(chunks: readonly SourcedChunk[]): Map<string, SourcedChunk> {
  if (!Array.isArray(chunks)) throw new RagError('invalidInput', 'chunks must be an array', { field: 'chunks' });
  const unique = new Map<string, SourcedChunk>();
  chunks.forEach((chunk, index) => {
    if (!chunk || typeof chunk.content !== 'string' || chunk.content.trim() === '') {
      throw new RagError('invalidInput', `chunk ${index} has no content`, { field: `chunks.${index}.content` });
    }
    const hash = sha256Hex(chunk.content);
    if (!unique.has(hash)) unique.set(hash, { content: chunk.content, hash, source: String(chunk.source ?? '') });
  });
  return unique;
}
