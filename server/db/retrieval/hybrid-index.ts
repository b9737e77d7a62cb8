import type { Database } from 'better-sqlite3';
import type { SqliteWriteGate } from '../sqlite-database.ts';
import { sha256Hex } from '../../rag/chunk/sha256-hex.ts';
import type { ProgressCallback, SearchOptions, SearchResult, SourcedChunk } from '../../rag/rag-types.ts';
import type { EmbeddingProvider } from '../../rag/search/embedding-provider.ts';
import { CANDIDATES_PER_RESULT, checkSearchInput } from '../../rag/search/index-input.ts';
import { reciprocalRankFusion } from '../../rag/search/reciprocal-rank-fusion.ts';
import type { IndexStats, ReplaceResult, RetrievalIndex } from '../../rag/search/retrieval-index.ts';
import { SqliteFtsIndex } from './sqlite-fts-index.ts';
import { SqliteVectorStore } from './sqlite-vector-store.ts';

const EMBED_BATCH = 64;

/**
 * BM25 (SqliteFtsIndex) and vector similarity (SqliteVectorStore + an EmbeddingProvider), fused by
 * reciprocal rank. Used when an embedding model is configured; otherwise SqliteFtsIndex alone.
 *
 * Threshold and score: each retriever keeps only candidates whose own 0..1 score (BM25 share of
 * the question, see README; cosine similarity clamped at 0) reaches scoreThreshold; the survivors
 * are ordered by RRF and each result's `score` is the best of its per-retriever scores, so every
 * returned score is >= the threshold and still means "how well at least one retriever matched".
 *
 * Training embeds only hashes without a vector for the provider's model, BEFORE the BM25 swap, so
 * both retrievers switch to the new content together (apart from the vectors of removed chunks,
 * pruned just after the swap and ignored anyway because search joins on live chunks).
 */
export class HybridIndex implements RetrievalIndex {
  readonly #fts: SqliteFtsIndex;
  readonly #vectors: SqliteVectorStore;
  readonly #embedder: EmbeddingProvider;
  readonly #write: SqliteWriteGate;

  /** `writeGate`: as SqliteFtsIndex's; the vector writes go through it too. */
  constructor(db: Database, embedder: EmbeddingProvider, options: { batchSize?: number; writeGate?: SqliteWriteGate } = {}) {
    this.#fts = new SqliteFtsIndex(db, options);
    this.#vectors = new SqliteVectorStore(db);
    this.#embedder = embedder;
    this.#write = options.writeGate ?? (async (write) => write());
  }

  /** Progress runs twice over 0..total: first embedding the new chunks, then indexing them. */
  async replace(knowledgeId: string, chunks: readonly SourcedChunk[], onProgress?: ProgressCallback): Promise<ReplaceResult> {
    const byHash = new Map(chunks.map((c) => [sha256Hex(c.content), c.content]));
    const missing = this.#vectors.missing(knowledgeId, this.#embedder.model, [...byHash.keys()]);
    for (let start = 0; start < missing.length; start += EMBED_BATCH) {
      const hashes = missing.slice(start, start + EMBED_BATCH);
      const vectors = await this.#embedder.embed(hashes.map((h) => byHash.get(h) as string));
      await this.#write(() => this.#vectors.put(knowledgeId, this.#embedder.model, hashes.map((hash, i) => ({ hash, vector: vectors[i] }))));
      onProgress?.({ done: start + hashes.length, total: missing.length });
    }
    const result = await this.#fts.replace(knowledgeId, chunks, onProgress);
    await this.#write(() => this.#vectors.prune(knowledgeId));
    return result;
  }

  async clear(knowledgeId: string): Promise<{ removed: number }> {
    const result = await this.#fts.clear(knowledgeId);
    await this.#write(() => this.#vectors.clear(knowledgeId));
    return result;
  }

  async search(knowledgeId: string, query: string, options: SearchOptions): Promise<SearchResult[]> {
    // The caller's limits first: the retrievers below are asked for more (candidates).
    checkSearchInput(knowledgeId, query, { maxResults: options.maxResults, scoreThreshold: options.scoreThreshold });
    const candidates = options.maxResults * CANDIDATES_PER_RESULT;
    const lexical = await this.#fts.search(knowledgeId, query, { maxResults: candidates, scoreThreshold: options.scoreThreshold, candidates: true });
    let semantic: SearchResult[] = [];
    if (query.trim() !== '' && (await this.#fts.stats(knowledgeId)).generation > 0) {
      const [vector] = await this.#embedder.embed([query]);
      semantic = this.#vectors
        .search(knowledgeId, this.#embedder.model, vector, candidates)
        .filter((r) => r.score >= options.scoreThreshold);
    }
    const byHash = new Map<string, SearchResult>();
    for (const r of [...lexical, ...semantic]) if (!byHash.has(r.hash)) byHash.set(r.hash, r);
    return reciprocalRankFusion([
      lexical.map((r) => ({ key: r.hash, score: r.score })),
      semantic.map((r) => ({ key: r.hash, score: r.score })),
    ])
      .slice(0, options.maxResults)
      .map((f) => ({ ...(byHash.get(f.key) as SearchResult), score: f.score }));
  }

  stats(knowledgeId: string): Promise<IndexStats> {
    return this.#fts.stats(knowledgeId);
  }
}
