import type { Database } from '../db/database.ts';
import { createEmbeddingProvider } from '../llm/create-embedding-provider.ts';
import { readLlmSettings } from '../llm/read-llm-settings.ts';
import { createRetrievalIndex } from '../rag/search/create-retrieval-index.ts';
import type { RetrievalIndex } from '../rag/search/retrieval-index.ts';
import type { IndexSource } from './chat-service.ts';

/**
 * The retrieval index the chat searches: built on first use on the server's own database, chosen like the RAG routes choose theirs (hybrid when EMBEDDING_MODEL is set, BM25
 * otherwise). It reads the same rag_* tables the RAG routes train, so it answers from whatever was
 * trained last. The RAG feature keeps its index private; were it to expose one, this would use it.
 * On PostgreSQL it is the tsvector index over the same rag_* tables (create-retrieval-index.ts).
 */
export function chatRetrievalIndex(database: Database, env: NodeJS.ProcessEnv = process.env): IndexSource {
  let index: RetrievalIndex | null | undefined;
  return () => {
    if (index !== undefined) return index;
    const { llm, embedding } = readLlmSettings(env);
    const embedder = createEmbeddingProvider(embedding, llm);
    index = createRetrievalIndex(database, embedder).index;
    return index;
  };
}
