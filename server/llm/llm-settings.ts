/**
 * What an administrator configures (Settings or env) to choose the chat model and the embedding
 * model. Nulls mean "not set": Settings rows store empty values as null.
 */
export interface LlmSettings {
  /** 'openai-compatible' | 'offline'; unset picks openai-compatible when baseUrl is set, else offline. */
  provider?: string | null;
  model?: string | null;
  baseUrl?: string | null;
  apiKey?: string | null;
  timeoutMs?: number | null;
  maxRetries?: number;
}

export interface EmbeddingSettings {
  /** No embedding model means no vectors: retrieval runs on full-text search alone. */
  model?: string | null;
  /** Defaults to the chat settings' baseUrl / apiKey when unset. */
  baseUrl?: string | null;
  apiKey?: string | null;
  timeoutMs?: number | null;
  batchSize?: number;
}
