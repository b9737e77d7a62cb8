import { sha256Hex } from '../chunk/sha256-hex.ts';
import { RagError } from '../rag-error.ts';
import type { SearchOptions, SourcedChunk } from '../rag-types.ts';

// What every RetrievalIndex accepts, checked the same way whatever the database behind it.

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
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 1000) {
    throw new RagError('invalidInput', `maxResults must be an integer from 1 to 1000; got ${String(maxResults)}`, { field: 'maxResults' });
  }
  if (typeof scoreThreshold !== 'number' || !(scoreThreshold >= 0 && scoreThreshold <= 1)) {
    throw new RagError('invalidInput', `scoreThreshold must be a number from 0 to 1; got ${String(scoreThreshold)}`, { field: 'scoreThreshold' });
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
