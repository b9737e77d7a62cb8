import { countMessageTokens } from '../../llm/count-tokens.ts';
import type { LlmContext, LlmFragment, LlmMessage } from '../../llm/llm-provider.ts';
import { NO_INFORMATION_ANSWER, OFF_TOPIC_ANSWER } from '../../llm/offline-answers.ts';
import { CONTACT_MEMORY_HEADING, formatContactMemoryLines, type ContactMemoryItem } from './format-contact-memory.ts';
import { renderSystemPrompt, type PromptBot } from './render-system-prompt.ts';

/** One entry of Conversation.chats. */
export interface PromptChat {
  role: string;
  message?: string | null;
}

export interface ChatPromptInput {
  bot: PromptBot;
  /** The bot has a trained knowledge base (picks systemPromptWithKnowledge). */
  hasKnowledge: boolean;
  /** Retrieved fragments above the score threshold, best first. */
  fragments: readonly LlmFragment[];
  memory?: readonly ContactMemoryItem[] | null;
  /** Conversation.chats before the new message, oldest first (do not include the new message). */
  history?: readonly PromptChat[] | null;
  userMessage: string;
  /** How many of the latest chats (each user or assistant message counts one) to send. Default 10. */
  maxHistoryChats?: number;
  /** Budget for the whole prompt in tokens. Default 3000, which fits local models' 4k contexts with room to answer. */
  maxPromptTokens?: number;
}

export interface ChatPrompt {
  messages: LlmMessage[];
  /** For the provider: the offline one answers from it, model-backed ones ignore it. */
  context: LlmContext;
  /** The fragments that made it into the prompt (also what a trace should record). */
  fragments: LlmFragment[];
  promptTokens: number;
  /** False when even the system prompt, the remaining fragments and the new message exceed the budget. */
  withinBudget: boolean;
  dropped: { historyChats: number; memoryLines: number; fragments: number };
}

export const DEFAULT_MAX_HISTORY_CHATS = 10;
export const DEFAULT_MAX_PROMPT_TOKENS = 3000;

/**
 * Builds the chat messages: the system prompt (with the contact's memory appended as a section),
 * the latest chats, then the new user message. Memory goes into the one system message rather than
 * a second one because several local models' chat templates reject a system message after the first.
 *
 * Over budget, it gives up, in order: the oldest chats, then memory lines (last first), then the
 * lowest-ranked fragments. The bot's instructions and the visitor's message are never cut.
 */
export function buildChatMessages(input: ChatPromptInput): ChatPrompt {
  const maxChats = Math.max(0, input.maxHistoryChats ?? DEFAULT_MAX_HISTORY_CHATS);
  const budget = input.maxPromptTokens ?? DEFAULT_MAX_PROMPT_TOKENS;
  const usable = (input.history ?? [])
    .filter((chat): chat is { role: 'user' | 'assistant'; message: string } =>
      (chat.role === 'user' || chat.role === 'assistant') && typeof chat.message === 'string' && chat.message.trim() !== '',
    )
    .map((chat): LlmMessage => ({ role: chat.role, content: chat.message.trim() }));
  let history = maxChats === 0 ? [] : usable.slice(-maxChats);
  let memory = formatContactMemoryLines(input.memory);
  let fragments = [...input.fragments];
  const userMessage: LlmMessage = { role: 'user', content: input.userMessage.trim() };
  const dropped = { historyChats: usable.length - history.length, memoryLines: 0, fragments: 0 };

  const assemble = (): LlmMessage[] => {
    let system = renderSystemPrompt(input.bot, input.hasKnowledge, fragments);
    if (memory.length > 0) system += `\n\n${CONTACT_MEMORY_HEADING}\n${memory.join('\n')}`;
    return [{ role: 'system', content: system }, ...history, userMessage];
  };

  let messages = assemble();
  let tokens = countMessageTokens(messages);
  const shrink = (step: () => void) => {
    step();
    messages = assemble();
    tokens = countMessageTokens(messages);
  };
  while (tokens > budget && history.length > 0) {
    shrink(() => {
      history = history.slice(1);
      dropped.historyChats++;
    });
  }
  while (tokens > budget && memory.length > 0) {
    shrink(() => {
      memory = memory.slice(0, -1);
      dropped.memoryLines++;
    });
  }
  while (tokens > budget && fragments.length > 0) {
    shrink(() => {
      fragments = fragments.slice(0, -1);
      dropped.fragments++;
    });
  }

  return {
    messages,
    context: {
      question: userMessage.content,
      fragments,
      hasKnowledge: input.hasKnowledge,
      fallback: NO_INFORMATION_ANSWER,
      offTopicAnswer: OFF_TOPIC_ANSWER,
    },
    fragments,
    promptTokens: tokens,
    withinBudget: tokens <= budget,
    dropped,
  };
}
