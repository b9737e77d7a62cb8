import type { Database } from '../db/database.ts';
import { createLlmProvider } from '../llm/llm-provider-registry.ts';
import type { LlmProvider } from '../llm/llm-provider.ts';
import type { LlmSettings } from '../llm/llm-settings.ts';
import { readLlmSettings } from '../llm/read-llm-settings.ts';
import { settingsStoreFor } from '../settings/settings-store.ts';

/**
 * The chat's language model: Settings (llm.provider, llm.baseUrl, llm.model, llm.apiKey,
 * llm.timeoutMs) where an administrator set them, else the LLM_* environment, else the offline
 * provider. Read per message (the settings store caches the table) so a change in Settings
 * applies to the next message without a restart; the provider itself is rebuilt only when the
 * effective settings change.
 */
export class ChatLlm {
  #cached: { key: string; provider: LlmProvider } | null = null;

  constructor(
    private readonly database: Database,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async provider(): Promise<LlmProvider> {
    const settings = await this.settings();
    const key = JSON.stringify(settings);
    if (this.#cached?.key === key) return this.#cached.provider;
    const provider = createLlmProvider(settings);
    this.#cached = { key, provider };
    return provider;
  }

  async settings(): Promise<LlmSettings> {
    const fromEnv = readLlmSettings(this.env).llm;
    const store = settingsStoreFor(this.database);
    const text = async (key: string) => (await store.getString(key))?.trim() || null;
    const provider = await text('llm.provider');
    return {
      // 'auto' (the default) decides by the base URL, like an unset LLM_PROVIDER.
      provider: (provider === 'auto' ? null : provider) ?? fromEnv.provider ?? null,
      baseUrl: (await text('llm.baseUrl')) ?? fromEnv.baseUrl ?? null,
      model: (await text('llm.model')) ?? fromEnv.model ?? null,
      apiKey: (await text('llm.apiKey')) ?? fromEnv.apiKey ?? null,
      timeoutMs: fromEnv.timeoutMs ?? (await store.getNumber('llm.timeoutMs')) ?? null,
    };
  }
}
