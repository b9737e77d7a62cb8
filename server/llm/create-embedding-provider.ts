import type { EmbeddingProvider } from './embedding-provider.ts';
import { sameEndpointOrigin } from './endpoint-origin.ts';
import type { EmbeddingSettings, LlmSettings } from './llm-settings.ts';
import { OpenAiCompatibleEmbeddingProvider } from './openai-compatible-embedding-provider.ts';

/**
 * The configured embedding provider, or null when no embedding model is set (retrieval then uses
 * full-text search only). Connection settings not given for embeddings are taken from the chat
 * settings when those point at an OpenAI-compatible server, since one server usually does both;
 * the chat's key is borrowed only for the chat's own origin, never sent to another embedding host.
 * The server passes settings already resolved (server/config/resolve-effective-config.ts).
 */
export function createEmbeddingProvider(embedding: EmbeddingSettings, chat: LlmSettings = {}): EmbeddingProvider | null {
  const model = embedding.model?.trim();
  if (!model) return null;
  const chatIsRemote = chat.provider?.trim() !== 'offline';
  const baseUrl = embedding.baseUrl?.trim() || (chatIsRemote ? chat.baseUrl : null);
  const borrowed = chatIsRemote && chat.apiKey && sameEndpointOrigin(baseUrl, chat.baseUrl) ? chat.apiKey : null;
  return new OpenAiCompatibleEmbeddingProvider({
    model,
    baseUrl,
    apiKey: embedding.apiKey?.trim() || borrowed,
    timeoutMs: embedding.timeoutMs ?? chat.timeoutMs,
    ...(embedding.batchSize !== undefined ? { batchSize: embedding.batchSize } : {}),
  });
}
