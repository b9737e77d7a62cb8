import { performance } from 'node:perf_hooks';
import type OpenAI from 'openai';
import { countMessageTokens, countTextTokens } from './count-tokens.ts';
import { createOpenAiClient, type OpenAiConnectionOptions } from './create-openai-client.ts';
import { LlmError } from './llm-error.ts';
import type { LlmProvider, LlmRequest, LlmResult, LlmStreamEvent } from './llm-provider.ts';
import { invalidResponse, toLlmError, type UpstreamDescription } from './to-llm-error.ts';

export interface OpenAiCompatibleOptions extends OpenAiConnectionOptions {
  model: string;
}

type Usage = { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;

/**
 * Chat completions against any OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio).
 * `request.context` is ignored: the fragments are already in the system prompt.
 * Token counts come from the server's usage when it sends one, else from our tokenizer.
 * Uses `max_tokens` rather than `max_completion_tokens` because every compatible server knows it.
 */
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = 'openai-compatible';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly upstream: UpstreamDescription;
  private readonly at: string;

  constructor(options: OpenAiCompatibleOptions) {
    const model = options.model?.trim();
    if (!model) throw new Error('The openai-compatible LLM provider needs a model name (e.g. gpt-4o-mini or llama3.1).');
    this.model = model;
    ({ client: this.client, upstream: this.upstream } = createOpenAiClient(options, model));
    this.at = `the language model server at ${this.upstream.endpoint}`;
  }

  async complete(request: LlmRequest): Promise<LlmResult> {
    const started = performance.now();
    let response: unknown;
    try {
      response = await this.client.chat.completions.create(this.body(request), { signal: request.signal });
    } catch (error) {
      throw toLlmError(error, this.upstream);
    }
    const choices = (response as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices)) throw invalidResponse(this.at);
    if (choices.length === 0) throw invalidResponse(this.at, undefined, 'a completion with no choices');
    const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | null)?.message;
    const content = typeof message?.content === 'string' ? message.content : typeof message?.refusal === 'string' ? message.refusal : null;
    if (content === null) throw invalidResponse(this.at, undefined, 'a completion without message content');
    const text = content.trim();
    if (!text) throw invalidResponse(this.at, undefined, 'an empty answer');
    return this.result(request, text, (response as { usage?: Usage }).usage, started);
  }

  async *stream(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
    const started = performance.now();
    let usage: Usage;
    let text = '';
    try {
      const chunks = await this.client.chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        { signal: request.signal },
      );
      for await (const chunk of chunks) {
        if (typeof chunk !== 'object' || chunk === null || (chunk.choices !== undefined && !Array.isArray(chunk.choices))) {
          throw invalidResponse(this.at, undefined, 'a stream chunk that is not a chat completion chunk');
        }
        if (chunk.usage) usage = chunk.usage;
        const delta = chunk.choices?.[0]?.delta?.content;
        if (typeof delta === 'string' && delta.length > 0) {
          text += delta;
          yield { type: 'delta', text: delta };
        }
      }
    } catch (error) {
      throw toLlmError(error, this.upstream);
    }
    // The SDK ends an aborted stream quietly: what arrived so far is not a whole answer.
    if (request.signal?.aborted) throw new LlmError('aborted', 'The request to the language model was cancelled.');
    if (!text.trim()) throw invalidResponse(this.at, undefined, 'an empty answer');
    // Deltas are passed on as sent; the stored answer (result.text) is trimmed like complete()'s.
    yield { type: 'done', result: this.result(request, text.trim(), usage, started) };
  }

  private body(request: LlmRequest) {
    return {
      model: this.model,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  private result(request: LlmRequest, text: string, usage: Usage, started: number): LlmResult {
    return {
      text,
      inputTokens: tokenCount(usage?.prompt_tokens) ?? countMessageTokens(request.messages),
      outputTokens: tokenCount(usage?.completion_tokens) ?? countTextTokens(text),
      latencyMs: performance.now() - started,
      provider: this.name,
      model: this.model,
    };
  }
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
