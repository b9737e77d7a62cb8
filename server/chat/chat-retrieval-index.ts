import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import type { Database } from '../db/database.ts';
import { configuredRetrievalIndex } from '../rag/search/configured-retrieval-index.ts';
import type { IndexSource } from './chat-service.ts';

/**
 * The retrieval index the chat searches, chosen like the RAG routes choose theirs (hybrid when an
 * embedding model is configured, BM25 otherwise) from the same effective configuration, so an
 * embedding change in Settings reaches the chat's next message as it reaches the next training.
 * It reads the same rag_* tables the RAG routes train, so it answers from whatever was trained
 * last. On PostgreSQL it is the tsvector index over those tables (create-retrieval-index.ts).
 */
export function chatRetrievalIndex(database: Database, readConfig: EffectiveConfigReader): IndexSource {
  const current = configuredRetrievalIndex(database, readConfig);
  return async () => (await current()).index;
}
