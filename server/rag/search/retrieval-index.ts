import type { ProgressCallback, SearchOptions, SearchResult, SourcedChunk } from '../rag-types.ts';

/** What a (re-)training changed. */
export interface ReplaceResult {
  /** Chunks now indexed (duplicates by hash counted once). */
  total: number;
  added: number;
  kept: number;
  removed: number;
}

export interface IndexStats {
  chunks: number;
  /** Bumped by every completed training; 0 = never trained. */
  generation: number;
  trainedAt: string | null;
}

/**
 * The searchable store of one or more knowledge bases. Implementations: SqliteFtsIndex (BM25 over
 * SQLite FTS5), HybridIndex (plus vectors), PostgresFtsIndex (tsvector); create-retrieval-index.ts picks one.
 */
export interface RetrievalIndex {
  /** Makes `chunks` the knowledge's whole content; incremental by hash, atomic for searchers. */
  replace(knowledgeId: string, chunks: readonly SourcedChunk[], onProgress?: ProgressCallback): Promise<ReplaceResult>;
  /** Forgets the knowledge entirely; returns how many chunks were removed. */
  clear(knowledgeId: string): Promise<{ removed: number }>;
  /** Best chunks first, at most maxResults, none scoring below scoreThreshold. */
  search(knowledgeId: string, query: string, options: SearchOptions): Promise<SearchResult[]>;
  stats(knowledgeId: string): Promise<IndexStats>;
}
