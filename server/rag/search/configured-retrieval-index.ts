import type { EffectiveConfigReader } from '../../config/resolve-effective-config.ts';
import type { Database } from '../../db/database.ts';
import { createEmbeddingProvider } from '../../llm/create-embedding-provider.ts';
import type { EmbeddingProvider } from '../../llm/embedding-provider.ts';
import { createRetrievalIndex, type ChosenIndex } from '../../db/retrieval/create-retrieval-index.ts';

export interface ConfiguredIndex extends ChosenIndex {
  /** The embedder the index uses; null: full text only. */
  embedder: EmbeddingProvider | null;
}

export type ConfiguredIndexSource = () => Promise<ConfiguredIndex>;

/**
 * The retrieval index for the current embedding settings: rebuilt when they change (a PATCH of
 * embedding.* in Settings applies to the next training, search and chat message without a
 * restart), kept otherwise. The indexes are views over the same rag_* tables, so a rebuilt one
 * sees everything trained before; vectors are stored per model, so a new model embeds on the
 * next training. `onBuilt` hears of each new choice (the start-up log line, warnings).
 */
export function configuredRetrievalIndex(database: Database, readConfig: EffectiveConfigReader, onBuilt?: (chosen: ConfiguredIndex) => void): ConfiguredIndexSource {
  let current: { key: string; chosen: ConfiguredIndex } | null = null;
  return async () => {
    const { embedding, llm } = await readConfig();
    const key = JSON.stringify(embedding.model ? embedding : null);
    if (current?.key === key) return current.chosen;
    const embedder = createEmbeddingProvider(embedding, llm);
    const chosen = { ...createRetrievalIndex(database, embedder), embedder };
    current = { key, chosen };
    onBuilt?.(chosen);
    return chosen;
  };
}
