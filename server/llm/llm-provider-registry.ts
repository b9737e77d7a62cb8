import type { LlmProvider } from './llm-provider.ts';
import type { LlmSettings } from './llm-settings.ts';
import { OfflineProvider } from './offline-provider.ts';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.ts';

/** Every chat provider Forja can build, by the name stored in settings and traces. */
export const llmProviderRegistry = {
  'openai-compatible': (settings: LlmSettings): LlmProvider =>
    new OpenAiCompatibleProvider({
      model: settings.model ?? '',
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      timeoutMs: settings.timeoutMs,
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
    }),
  offline: (): LlmProvider => new OfflineProvider(),
} satisfies Record<string, (settings: LlmSettings) => LlmProvider>;

export type LlmProviderName = keyof typeof llmProviderRegistry;

export const LLM_PROVIDER_NAMES = Object.keys(llmProviderRegistry) as LlmProviderName[];

/**
 * Builds the configured provider. Nothing configured (no provider, no base URL) gives the offline
 * provider so the chat works out of the box. Throws a plain Error on an unknown name or a missing
 * model: that is a configuration mistake, best caught when the settings are saved.
 */
export function createLlmProvider(settings: LlmSettings = {}): LlmProvider {
  const name = resolveProviderName(settings);
  if (!Object.hasOwn(llmProviderRegistry, name)) {
    throw new Error(`Unknown LLM provider ${JSON.stringify(name)}. Valid providers: ${LLM_PROVIDER_NAMES.join(', ')}.`);
  }
  return llmProviderRegistry[name as LlmProviderName](settings);
}

export function resolveProviderName(settings: LlmSettings): string {
  const explicit = settings.provider?.trim();
  if (explicit) return explicit;
  return settings.baseUrl?.trim() ? 'openai-compatible' : 'offline';
}
