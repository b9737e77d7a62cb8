import type { EmbeddingSettings, LlmSettings } from '../llm/llm-settings.ts';

/**
 * The LLM_* and EMBEDDING_* variables, parsed once at start by server/config.ts
 * (loadEnvironmentDefaults). They are defaults: the Settings rows win where an administrator set
 * them (server/config/resolve-effective-config.ts, the one place precedence is decided).
 *
 * | Variable            | Meaning                                                          |
 * |---------------------|------------------------------------------------------------------|
 * | LLM_PROVIDER        | openai-compatible or offline (unset: by LLM_BASE_URL)            |
 * | LLM_BASE_URL        | e.g. http://localhost:11434/v1 (Ollama); unset and no provider: offline |
 * | LLM_MODEL           | chat model, e.g. gpt-4o-mini, llama3.1                           |
 * | LLM_API_KEY         | bearer key; local servers usually need none                      |
 * | LLM_TIMEOUT_MS      | per attempt, default 60000                                       |
 * | EMBEDDING_MODEL     | unset: no vectors, full-text retrieval only                      |
 * | EMBEDDING_BASE_URL  | default LLM_BASE_URL                                             |
 * | EMBEDDING_API_KEY   | default LLM_API_KEY                                              |
 */
export function readLlmEnvironment(env: Readonly<Record<string, string | undefined>>): { llm: LlmSettings; embedding: EmbeddingSettings } {
  const text = (name: string) => env[name]?.trim() || null;
  const raw = text('LLM_TIMEOUT_MS');
  const timeoutMs = raw === null ? null : Number(raw);
  if (timeoutMs !== null && (!Number.isInteger(timeoutMs) || timeoutMs <= 0)) {
    throw new Error(`LLM_TIMEOUT_MS must be a positive integer of milliseconds; got ${JSON.stringify(raw)}`);
  }
  return {
    llm: { provider: text('LLM_PROVIDER'), baseUrl: text('LLM_BASE_URL'), model: text('LLM_MODEL'), apiKey: text('LLM_API_KEY'), timeoutMs },
    embedding: { model: text('EMBEDDING_MODEL'), baseUrl: text('EMBEDDING_BASE_URL'), apiKey: text('EMBEDDING_API_KEY'), timeoutMs },
  };
}
