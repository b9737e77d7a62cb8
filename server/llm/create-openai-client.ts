import OpenAI from 'openai';
import { describeEndpoint, resolveOpenAiBaseUrl } from './openai-base-url.ts';
import type { UpstreamDescription } from './to-llm-error.ts';

export interface OpenAiConnectionOptions {
  /** Default https://api.openai.com/v1; a bare host gets /v1 (see resolveOpenAiBaseUrl). */
  baseUrl?: string | null;
  /** Local servers (Ollama, vLLM, LM Studio) usually need none. */
  apiKey?: string | null;
  /** Per attempt. Default 60 000 ms. */
  timeoutMs?: number | null;
  /** Retries on connection errors, 408/409/429 and 5xx, with the SDK's backoff. Default 1. */
  maxRetries?: number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;
export const DEFAULT_LLM_MAX_RETRIES = 1;

/**
 * One configured openai SDK client. Everything is passed explicitly so the SDK never falls back to
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_ORG_ID from the environment behind the settings' back.
 */
export function createOpenAiClient(options: OpenAiConnectionOptions, model: string): { client: OpenAI; upstream: UpstreamDescription } {
  const baseURL = resolveOpenAiBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_LLM_TIMEOUT_MS;
  const apiKey = options.apiKey?.trim() || null;
  const client = new OpenAI({
    baseURL,
    // The SDK insists on a key; servers that need none ignore the header.
    apiKey: apiKey ?? 'no-key',
    organization: null,
    project: null,
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES,
  });
  return { client, upstream: { endpoint: describeEndpoint(baseURL), model, timeoutMs, apiKey } };
}
