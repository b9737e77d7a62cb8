import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import { createLlmProvider } from '../llm/llm-provider-registry.ts';
import type { LlmProvider } from '../llm/llm-provider.ts';
import type { LlmSettings } from '../llm/llm-settings.ts';

/**
 * The chat's language model, as the effective configuration resolves it (Settings, then the LLM_*
 * environment, then the offline provider: server/config/resolve-effective-config.ts). Read per
 * message so a change in Settings applies to the next message without a restart; the provider
 * itself is rebuilt only when the effective settings change.
 */
export class ChatLlm {
  #cached: { key: string; provider: LlmProvider } | null = null;

  constructor(private readonly readConfig: EffectiveConfigReader) {}

  async provider(): Promise<LlmProvider> {
    const settings = await this.settings();
    const key = JSON.stringify(settings);
    if (this.#cached?.key === key) return this.#cached.provider;
    const provider = createLlmProvider(settings);
    this.#cached = { key, provider };
    return provider;
  }

  async settings(): Promise<LlmSettings> {
    return (await this.readConfig()).llm;
  }
}
