import { performance } from 'node:perf_hooks';
import { countMessageTokens, countTextTokens } from './count-tokens.ts';
import { extractAnswer, MIN_ANSWER_COVERAGE } from './extract-answer.ts';
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
    const { text, usedFragments } = this.answer(request);
    return {
      text,
      ...(usedFragments ? { usedFragments } : {}),
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

  /**
   * Sentences of the one fragment that answers best, only when they cover the question
   * (extract-answer.ts MIN_ANSWER_COVERAGE): a fragment that passed retrieval on one shared word
   * is no answer, and the fallback lets the chat record the question as unanswered.
   */
  private answer(request: LlmRequest): { text: string; usedFragments?: number[] } {
    const context = request.context;
    const offTopic = context?.offTopicAnswer ?? OFF_TOPIC_ANSWER;
    if (!context || !context.hasKnowledge) return { text: offTopic };
    const fallback = context.fallback ?? NO_INFORMATION_ANSWER;
    const question = context.question || lastUserMessage(request);
    const extracted = extractAnswer(question, context.fragments, { maxSentences: 3 });
    if (!extracted || extracted.sentences.length === 0 || extracted.coverage < MIN_ANSWER_COVERAGE) return { text: fallback, usedFragments: [] };
    return { text: extracted.sentences.join(joinerOf(extracted.sentences)), usedFragments: [extracted.fragmentIndex] };
  }
}

/** CJK sentences end in a full-width mark and are written without a space after it. */
function joinerOf(sentences: readonly string[]): string {
  return sentences.every((s) => /[。！？]$/u.test(s)) ? '' : ' ';
}

function lastUserMessage(request: LlmRequest): string {
  return request.messages.findLast((message) => message.role === 'user')?.content ?? '';
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new LlmError('aborted', 'The request to the language model was cancelled.');
}
