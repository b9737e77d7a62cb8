import type { EmbeddingProvider } from './embedding-provider.ts';
import type { EmbeddingSettings, LlmSettings } from './llm-settings.ts';
import { OpenAiCompatibleEmbeddingProvider } from './openai-compatible-embedding-provider.ts';

/**
 * The configured embedding provider, or null when no embedding model is set (retrieval then uses
 * full-text search only). Connection settings not given for embeddings are taken from the chat
 * settings when those point at an OpenAI-compatible server, since one server usually does both.
 */
export function createEmbeddingProvider(embedding: EmbeddingSettings, chat: LlmSettings = {}): EmbeddingProvider | null {
  const model = embedding.model?.trim();
  if (!model) return null;
  const chatIsRemote = chat.provider?.trim() !== 'offline';
  return new OpenAiCompatibleEmbeddingProvider({
    model,
    baseUrl: embedding.baseUrl?.trim() || (chatIsRemote ? chat.baseUrl : null),
    apiKey: embedding.apiKey?.trim() || (chatIsRemote ? chat.apiKey : null),
    timeoutMs: embedding.timeoutMs ?? chat.timeoutMs,
    ...(embedding.batchSize !== undefined ? { batchSize: embedding.batchSize } : {}),
  });
}
