/** One indexed fragment, the shape of KnowledgeSource.chunks[] (docs/product-rules.md#entities). */
export interface Chunk {
  content: string;
  /** sha256 hex of `content`: the identity used by incremental training. */
  hash: string;
  category: string;
  tags: string[];
}

/** A chunk headed for the index, labelled with where it came from (shown in traces). */
export interface SourcedChunk {
  content: string;
  hash: string;
  /** Source name, text title, file name or URL. */
  source: string;
  /** The language chosen for the chunk's source or base (ISO 639-1); absent or null: detected. */
  language?: string | null;
}

/** One search hit: the wire contract's (contract/rag/search-result.ts). */
export type { SearchResult } from '../../contract/rag/search-result.ts';

export interface SearchOptions {
  maxResults: number;
  scoreThreshold: number;
  /**
   * A retriever asked for fusion candidates by HybridIndex (CANDIDATES_PER_RESULT per result),
   * not a caller's search: maxResults may then exceed the knowledge's own limit by that factor.
   */
  candidates?: boolean;
}

/** Called while training: `done` of `total` chunks processed. */
export type ProgressCallback = (progress: { done: number; total: number }) => void;
