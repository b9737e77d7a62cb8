import { describe, expect, it } from 'vitest';
import { createLlmProvider, LLM_PROVIDER_NAMES } from '../../../server/llm/llm-provider-registry.ts';
import { OfflineProvider } from '../../../server/llm/offline-provider.ts';
import { OpenAiCompatibleProvider } from '../../../server/llm/openai-compatible-provider.ts';
import { readLlmEnvironment } from '../../../server/config/read-llm-environment.ts';

describe('createLlmProvider', () => {
  it('falls back to the offline provider when nothing is configured', () => {
    expect(createLlmProvider()).toBeInstanceOf(OfflineProvider);
    expect(createLlmProvider({ provider: null, baseUrl: '  ', model: 'gpt-4o-mini' })).toBeInstanceOf(OfflineProvider);
  });

  it('builds the OpenAI-compatible provider by name, or when only a base URL is set', () => {
    const named = createLlmProvider({ provider: 'openai-compatible', model: 'gpt-4o-mini', apiKey: 'sk-x' });
    expect(named).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(named).toMatchObject({ name: 'openai-compatible', model: 'gpt-4o-mini' });
    expect(createLlmProvider({ baseUrl: 'http://localhost:11434', model: 'llama3.1' })).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(createLlmProvider({ provider: 'offline', baseUrl: 'http://localhost:11434' })).toBeInstanceOf(OfflineProvider);
  });

  it('fails loudly on an unknown name, listing the valid ones', () => {
    expect(LLM_PROVIDER_NAMES).toEqual(['openai-compatible', 'offline']);
    expect(() => createLlmProvider({ provider: 'anthropic' })).toThrow('Unknown LLM provider "anthropic". Valid providers: openai-compatible, offline.');
    expect(() => createLlmProvider({ provider: 'toString' })).toThrow(/Unknown LLM provider "toString"/);
  });

  it('says what is missing for a half-configured provider', () => {
    expect(() => createLlmProvider({ provider: 'openai-compatible' })).toThrow(/needs a model name/);
    expect(() => createLlmProvider({ baseUrl: 'localhost:11434', model: 'x' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => createLlmProvider({ baseUrl: 'not a url', model: 'x' })).toThrow(/not a valid URL/);
  });
});

describe('readLlmEnvironment', () => {
  it('reads the LLM_* and EMBEDDING_* variables, unset as null', () => {
    expect(readLlmEnvironment({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'llama3.1', LLM_TIMEOUT_MS: '30000', EMBEDDING_MODEL: 'nomic-embed-text' })).toEqual({
      llm: { provider: null, baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', apiKey: null, timeoutMs: 30000 },
      embedding: { model: 'nomic-embed-text', baseUrl: null, apiKey: null, timeoutMs: 30000 },
    });
    expect(() => readLlmEnvironment({ LLM_TIMEOUT_MS: 'soon' })).toThrow(/LLM_TIMEOUT_MS must be a positive integer/);
  });
});
