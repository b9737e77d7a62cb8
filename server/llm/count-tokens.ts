import { lazyModule } from '../lazy-module.ts';
import type { LlmMessage } from './llm-provider.ts';

const tokenizer = lazyModule<typeof import('gpt-tokenizer')>('gpt-tokenizer');

/**
 * Token counts for traces and prompt budgets, with OpenAI's o200k_base encoding (gpt-tokenizer ships
 * the ranks inside the package, so nothing is downloaded). Local models tokenise differently; the
 * counts are then an estimate of the right order, which is all a budget or a trace needs.
 */
const CHAT_FORMAT_MODEL = 'gpt-4o';

export function countTextTokens(text: string): number {
  return text ? tokenizer().countTokens(text) : 0;
}

/** Tokens of a whole chat, including the per-message framing the chat format adds. */
export function countMessageTokens(messages: readonly LlmMessage[]): number {
  return messages.length === 0 ? 0 : tokenizer().encodeChat(messages, CHAT_FORMAT_MODEL).length;
}
