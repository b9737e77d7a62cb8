import type { Database } from '../../db/database.ts';
import { readLlmSettings } from '../../llm/read-llm-settings.ts';
import type { EmbeddingSettings, LlmSettings } from '../../llm/llm-settings.ts';
import { settingsStoreFor } from '../../settings/settings-store.ts';

/**
 * What the RAG routes read from the deployment, per request so a change takes effect without a
 * restart (the embedding model is the exception: the index is built once per process).
 *
 * | Variable                | Meaning                                                            |
 * |-------------------------|--------------------------------------------------------------------|
 * | LLM_* / EMBEDDING_*     | see server/llm/read-llm-settings.ts                                |
 * | RAG_ALLOW_PRIVATE_URLS  | `true`: parse-url and training may fetch loopback/private addresses |
 * |                         | (tests, trusted intranets). Anything else: public addresses only.   |
 *
 * The llm.* and embedding.* rows of Settings win over the environment when set (readRagSettings).
 */
export interface RagSettings {
  llm: LlmSettings;
  embedding: EmbeddingSettings;
  allowPrivateUrls: boolean;
}

export type RagSettingsReader = () => RagSettings | Promise<RagSettings>;

export function readRagSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RagSettings {
  const { llm, embedding } = readLlmSettings(env);
  return { llm, embedding, allowPrivateUrls: env.RAG_ALLOW_PRIVATE_URLS?.trim().toLowerCase() === 'true' };
}

/** Settings keys (server/settings/setting-definitions.ts) and the field each one sets. */
const LLM_KEYS = { provider: 'llm.provider', model: 'llm.model', baseUrl: 'llm.baseUrl', apiKey: 'llm.apiKey', timeoutMs: 'llm.timeoutMs' } as const;
const EMBEDDING_KEYS = { model: 'embedding.model', baseUrl: 'embedding.baseUrl', apiKey: 'embedding.apiKey' } as const;

/**
 * Settings rows first, the environment for what they leave empty ('auto' provider = unset). A
 * database without the Settings table (a trimmed test server) falls back to the environment.
 */
export async function readRagSettings(database: Database, env: NodeJS.ProcessEnv = process.env): Promise<RagSettings> {
  const fromEnv = readRagSettingsFromEnv(env);
  let stored: Map<string, unknown>;
  try {
    const store = settingsStoreFor(database);
    stored = new Map(await Promise.all([...Object.values(LLM_KEYS), ...Object.values(EMBEDDING_KEYS)].map(async (key) => [key, await store.get(key)] as const)));
  } catch {
    return fromEnv;
  }
  const text = (key: string) => {
    const value = stored.get(key);
    return typeof value === 'string' && value.trim() !== '' && value !== 'auto' ? value.trim() : null;
  };
  const timeout = stored.get(LLM_KEYS.timeoutMs);
  const timeoutMs = typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 ? timeout : null;
  return {
    llm: {
      provider: text(LLM_KEYS.provider) ?? fromEnv.llm.provider ?? null,
      model: text(LLM_KEYS.model) ?? fromEnv.llm.model ?? null,
      baseUrl: text(LLM_KEYS.baseUrl) ?? fromEnv.llm.baseUrl ?? null,
      apiKey: text(LLM_KEYS.apiKey) ?? fromEnv.llm.apiKey ?? null,
      // The seeded default (60 s) is a value too: env wins only when it was set explicitly.
      timeoutMs: fromEnv.llm.timeoutMs ?? timeoutMs,
    },
    embedding: {
      model: text(EMBEDDING_KEYS.model) ?? fromEnv.embedding.model ?? null,
      baseUrl: text(EMBEDDING_KEYS.baseUrl) ?? fromEnv.embedding.baseUrl ?? null,
      apiKey: text(EMBEDDING_KEYS.apiKey) ?? fromEnv.embedding.apiKey ?? null,
      timeoutMs: fromEnv.embedding.timeoutMs ?? timeoutMs,
    },
    allowPrivateUrls: fromEnv.allowPrivateUrls,
  };
}
