import { performance } from 'node:perf_hooks';
import { countMessageTokens, countTextTokens } from './count-tokens.ts';
import { extractAnswer } from './extract-answer.ts';
import { LlmError } from './llm-error.ts';
import type { LlmProvider, LlmRequest, LlmResult, LlmStreamEvent } from './llm-provider.ts';
import { NO_INFORMATION_ANSWER, OFF_TOPIC_ANSWER } from './offline-answers.ts';

/**
 * Answers with no network and no model, extractively from the retrieved fragments in
 * `request.context`, so the chat works out of the box. Without a context (a caller that is not
 * the chat) it has nothing to draw on and gives the off-topic answer. `maxTokens` and
 * `temperature` do not apply: the answer is at most three sentences of the sources.
 */
export class OfflineProvider implements LlmProvider {
  readonly name = 'offline';
  readonly model = 'extractive-v1';

  async complete(request: LlmRequest): Promise<LlmResult> {
    const started = performance.now();
    throwIfAborted(request.signal);
    const text = this.answer(request);
    return {
      text,
      inputTokens: countMessageTokens(request.messages),
      outputTokens: countTextTokens(text),
      latencyMs: performance.now() - started,
      provider: this.name,
      model: this.model,
    };
  }

  async *stream(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
    const started = performance.now();
    const result = await this.complete(request);
    // Word-sized deltas (each word keeps its trailing space) so the pieces concatenate to the text.
    for (const word of result.text.match(/\s*\S+\s*/g) ?? []) {
      throwIfAborted(request.signal);
      yield { type: 'delta', text: word };
    }
    yield { type: 'done', result: { ...result, latencyMs: performance.now() - started } };
  }

  private answer(request: LlmRequest): string {
    const context = request.context;
    const offTopic = context?.offTopicAnswer ?? OFF_TOPIC_ANSWER;
    if (!context || !context.hasKnowledge) return offTopic;
    const fallback = context.fallback ?? NO_INFORMATION_ANSWER;
    const question = context.question || lastUserMessage(request);
    const sentences = extractAnswer(question, context.fragments, { maxSentences: 3 });
    return sentences.length > 0 ? sentences.join(' ') : fallback;
  }
}

function lastUserMessage(request: LlmRequest): string {
  return request.messages.findLast((message) => message.role === 'user')?.content ?? '';
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new LlmError('aborted', 'The request to the language model was cancelled.');
}
