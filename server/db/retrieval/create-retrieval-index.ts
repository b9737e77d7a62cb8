import type { Database } from '../database.ts';
import { postgresPoolOf } from '../postgres-database.ts';
import { sqliteHandleOf, sqliteWriteGateOf } from '../sqlite-database.ts';
import type { EmbeddingProvider } from '../../rag/search/embedding-provider.ts';
import { HybridIndex } from './hybrid-index.ts';
import { PostgresFtsIndex } from './postgres-fts-index.ts';
import type { RetrievalIndex } from '../../rag/search/retrieval-index.ts';
import { indexCopiedChunks, SqliteFtsIndex } from './sqlite-fts-index.ts';

export interface ChosenIndex {
  index: RetrievalIndex;
  /** What it does, for the start-up log line. */
  retrieval: string;
  /** Set when an embedding model is configured but cannot be used on this engine. */
  warning?: string;
}

/**
 * The retrieval index for the server's database: on SQLite, FTS5 BM25 (hybrid with vectors when
 * an embedding model is set); on PostgreSQL, tsvector full text only: pgvector is not packaged
 * for the Debian release we build on, so vectors stay off there ("pgvector not available: BM25 only").
 */
export function createRetrievalIndex(database: Database, embedder: EmbeddingProvider | null): ChosenIndex {
  const handle = sqliteHandleOf(database);
  if (handle) {
    // The index writes on the server's own connection, so through its write gate like every other write.
    const writeGate = sqliteWriteGateOf(database) ?? undefined;
    return embedder
      ? { index: new HybridIndex(handle, embedder, { writeGate }), retrieval: `hybrid (${embedder.model})` }
      : { index: new SqliteFtsIndex(handle, { writeGate }), retrieval: 'bm25' };
  }
  const pool = postgresPoolOf(database);
  if (pool) {
    return {
      index: new PostgresFtsIndex(pool),
      retrieval: 'postgres full text (tsvector over per-language terms)',
      ...(embedder ? { warning: `pgvector not available: BM25 only (embedding model ${embedder.model} ignored)` } : {}),
    };
  }
  throw new Error(`No retrieval index for the ${database.dialect.name} database`);
}

/**
 * After `npm run db:copy` wrote rag_knowledge and rag_chunk straight into `database`: builds what
 * the engine's index keeps beside them (SQLite: each knowledge's FTS5 table; PostgreSQL: the terms
 * of chunks copied without, from SQLite). Answers a line per thing done, for the copy's log.
 */
export async function indexCopiedKnowledge(database: Database): Promise<string[]> {
  const handle = sqliteHandleOf(database);
  if (handle) {
    // Through the write gate, as every write on the server's own connection.
    const filled = await sqliteWriteGateOf(database)!(() => indexCopiedChunks(handle));
    return filled.map((fts) => `${fts}: full-text index rebuilt`);
  }
  const pool = postgresPoolOf(database);
  if (pool) {
    const analysed = await new PostgresFtsIndex(pool).analyseCopiedChunks();
    return analysed > 0 ? [`rag_chunk: ${analysed} chunks analysed`] : [];
  }
  throw new Error(`No retrieval index for the ${database.dialect.name} database`);
}
