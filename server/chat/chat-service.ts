import { randomUUID } from 'node:crypto';
import { recordLlmCall, retrievalDuration } from '../observability/metrics.ts';
import { performance } from 'node:perf_hooks';
import { HttpError, validationError } from '../http/http-error.ts';
import { LlmError } from '../llm/llm-error.ts';
import type { LlmProvider, LlmResult } from '../llm/llm-provider.ts';
import type { RetrievalIndex } from '../rag/search/retrieval-index.ts';
import type { SearchResult } from '../rag/rag-types.ts';
import { buildChatMessages } from './prompt/build-chat-messages.ts';
import type { ChatLlm } from './chat-llm.ts';
import type { ChatStore, StoredConversation } from './chat-store.ts';
import { LLM_FAILURE_ANSWER, TRACE_STATUS, type Chat, type ConversationView, type PublicBot, type TraceStatusName } from './chat-types.ts';
import { NO_INFORMATION_ANSWER } from '../llm/offline-answers.ts';
import { saysNoInformation } from './says-no-information.ts';
import { holdUntilAnswer } from './hold-until-answer.ts';
import { citeSources } from './cite-sources.ts';
import { smallTalkReply } from './small-talk-reply.ts';
import type { ConversationTokens } from './conversation-token.ts';
import { KeyedLocks } from './conversation-locks.ts';
import type { ReactionInput, StartInput } from './chat-validation.ts';

/** Where the retrieval index comes from (shared with the RAG routes when they expose one). */
export type IndexSource = () => Promise<RetrievalIndex | null>;

/** Called with each piece of the answer as the model produces it (streaming). */
export type DeltaListener = (text: string) => void;

/**
 * A failed answer: the conversation was still saved (user chat + polite assistant chat) and a
 * trace with status error records the cause. The routes answer with `status` and the conversation.
 */
export class ChatAnswerError extends HttpError {
  constructor(
    readonly failure: LlmError,
    readonly conversation: ConversationView,
  ) {
    super(failure.status >= 500 ? failure.status : 502, 'The assistant could not answer right now; the failure was recorded in the bot trace.', {
      i18nMessage: 'chat.error.unavailable',
      details: { conversation },
    });
  }
}

/**
 * The public chat (docs/product-rules.md#states Chat, #calls Chat): start a conversation, answer a message from
 * the bot's knowledge base through the configured language model, record a trace, react.
 */
export class ChatService {
  readonly #locks = new KeyedLocks();

  constructor(
    private readonly store: ChatStore,
    private readonly llm: ChatLlm,
    private readonly index: IndexSource,
    private readonly tokens: ConversationTokens,
  ) {}

  async publicBot(id: string): Promise<PublicBot> {
    const bot = await this.store.bot(id);
    return {
      _id: bot._id,
      name: bot.name,
      questions: bot.questions,
      welcomeMessage: bot.welcomeMessage,
      widgetTitle: bot.widgetTitle || bot.name,
      widgetColor: bot.widgetColor,
      widgetPosition: bot.widgetPosition,
      widgetTheme: bot.widgetTheme,
    };
  }

  /** A new conversation, and the signed token the browser keeps to resume it (conversation-token.ts). */
  async start(input: StartInput): Promise<ConversationView & { token: string }> {
    const bot = await this.store.bot(input.botId);
    // Never the existing contact of that e-mail: typing an address proves nothing until the
    // visitor proves it with a code (contact-verification.ts).
    const contact = await this.store.newContact(bot.tenant, input.name, input.email);
    const id = await this.store.createConversation(bot.tenant, String(contact._id), bot._id);
    return { ...(await this.store.conversationView(id)), token: this.tokens.issue(id, bot._id) };
  }

  conversation(id: string): Promise<ConversationView> {
    return this.store.conversationView(id);
  }

  /**
   * Appends the visitor's message and the bot's answer, records a trace, returns the conversation.
   * With `onDelta` the answer is streamed from the provider as it comes.
   */
  async message(conversationId: string, message: string, onDelta?: DeltaListener, signal?: AbortSignal): Promise<ConversationView> {
    // Existence first, outside the lock, so unknown ids answer 404 at once.
    await this.store.conversation(conversationId);
    return this.#locks.run(conversationId, () => this.answer(conversationId, message, onDelta, signal));
  }

  private async answer(conversationId: string, message: string, onDelta: DeltaListener | undefined, signal: AbortSignal | undefined) {
    const started = performance.now();
    const conversation = withoutFailedTry(await this.store.conversation(conversationId), message);
    const bot = await this.store.bot(conversation.botId);
    const userChat: Chat = { id: randomUUID(), role: 'user', message, createdAt: new Date().toISOString() };

    // A greeting or thanks is no question for the knowledge base: a friendly reply with the bot's
    // suggested questions, recorded as answered (small-talk-reply.ts).
    const smallTalk = smallTalkReply(message, bot.questions, bot.name);
    if (smallTalk !== null) return this.replyWithoutModel(conversation, userChat, smallTalk, TRACE_STATUS.ok, started, onDelta);

    const { results, hasKnowledge } = await this.retrieve(bot.knowledgeId, message);
    const fallback = bot.fallbackMessage.trim() || NO_INFORMATION_ANSWER;
    if (hasKnowledge && results.length === 0) {
      // Nothing above the knowledge base's threshold: the model could only say it does not know,
      // so it is not asked (no tokens, no wait) and the bot's own fallback answers.
      return this.replyWithoutModel(conversation, userChat, fallback, TRACE_STATUS.noAnswer, started, onDelta);
    }
    const memory = await this.store.contactMemory(conversation.contactId);
    const prompt = buildChatMessages({ bot, hasKnowledge, fragments: results, memory, history: conversation.chats, userMessage: message });
    // The prompt builder drops the lowest-ranked fragments first when over budget: a prefix is kept.
    const used = results.slice(0, prompt.fragments.length);
    const knowledgeBase = used.map((r) => ({ source: r.source, hash: r.hash, content: r.content }));

    const provider = await this.llm.provider();
    let result: LlmResult;
    try {
      // Streamed text that may yet become the fallback is held back (hold-until-answer.ts).
      result = await this.generate(provider, prompt.messages, prompt.context, onDelta && holdUntilAnswer(onDelta, [NO_INFORMATION_ANSWER, fallback]), signal);
      recordLlmCall(result);
    } catch (error) {
      const failure = error instanceof LlmError ? error : new LlmError('upstream', error instanceof Error ? error.message : String(error), { cause: error });
      const assistantChat: Chat = { id: randomUUID(), role: 'assistant', message: LLM_FAILURE_ANSWER, createdAt: new Date().toISOString() };
      await this.store.saveChatsWithTrace(conversationId, [...conversation.chats, userChat, assistantChat], conversation.tenant, {
        status: TRACE_STATUS.error,
        bot: bot._id,
        conversation: conversationId,
        chatId: assistantChat.id,
        userMessage: message,
        // No error field on BotTrace: the cause is the trace's assistant message, status error says so.
        assistantMessage: withoutNul(`Error (${failure.code}): ${failure.message}`),
        knowledgeBaseQuery: message,
        knowledgeBase,
        provider: provider.name,
        model: provider.model || 'unknown',
        inputTokens: prompt.promptTokens,
        outputTokens: 0,
        tokens: prompt.promptTokens,
        latency: Math.round(performance.now() - started),
      });
      throw new ChatAnswerError(failure, await this.store.conversationView(conversationId));
    }

    // PostgreSQL cannot store U+0000; a model's stray NUL is dropped, not a failed answer.
    const answered = withoutNul(result.text).trim();
    // An empty answer or the model's "no information" phrase is an unanswered question: the
    // visitor gets the bot's fallback (how to reach a person) and the trace says no_answer.
    const unanswered = answered === '' || saysNoInformation(answered, [NO_INFORMATION_ANSWER, fallback]);
    const text = unanswered ? fallback : answered;
    const citations = unanswered ? [] : citeSources(text, citedFragments(used, result.usedFragments));
    const assistantChat: Chat = {
      id: randomUUID(),
      role: 'assistant',
      message: text,
      createdAt: new Date().toISOString(),
      ...(citations.length > 0 ? { citations } : {}),
    };
    await this.store.saveChatsWithTrace(conversationId, [...conversation.chats, userChat, assistantChat], conversation.tenant, {
      status: unanswered ? TRACE_STATUS.noAnswer : TRACE_STATUS.ok,
      bot: bot._id,
      conversation: conversationId,
      chatId: assistantChat.id,
      userMessage: message,
      assistantMessage: text,
      knowledgeBaseQuery: message,
      knowledgeBase,
      citations,
      provider: result.provider,
      model: result.model || provider.model || 'unknown',
      inputTokens: Math.round(result.inputTokens),
      outputTokens: Math.round(result.outputTokens),
      tokens: Math.round(result.inputTokens + result.outputTokens),
      // What the visitor waited for: retrieval, prompt and model, not only the model's share.
      latency: Math.round(performance.now() - started),
    });
    return this.store.conversationView(conversationId);
  }

  /** An answer the chat gives itself (small talk, nothing retrieved): saved with its trace, no model asked. */
  private async replyWithoutModel(
    conversation: StoredConversation,
    userChat: Chat,
    text: string,
    status: TraceStatusName,
    started: number,
    onDelta: DeltaListener | undefined,
  ): Promise<ConversationView> {
    onDelta?.(text);
    const assistantChat: Chat = { id: randomUUID(), role: 'assistant', message: text, createdAt: new Date().toISOString() };
    await this.store.saveChatsWithTrace(conversation._id, [...conversation.chats, userChat, assistantChat], conversation.tenant, {
      status,
      bot: conversation.botId,
      conversation: conversation._id,
      chatId: assistantChat.id,
      userMessage: userChat.message,
      assistantMessage: text,
      knowledgeBaseQuery: userChat.message,
      knowledgeBase: [],
      provider: 'none',
      model: 'none',
      inputTokens: 0,
      outputTokens: 0,
      tokens: 0,
      latency: Math.round(performance.now() - started),
    });
    return this.store.conversationView(conversation._id);
  }

  private async generate(
    provider: LlmProvider,
    messages: Parameters<LlmProvider['complete']>[0]['messages'],
    context: Parameters<LlmProvider['complete']>[0]['context'],
    onDelta: DeltaListener | undefined,
    signal: AbortSignal | undefined,
  ): Promise<LlmResult> {
    const request = { messages, ...(context ? { context } : {}), ...(signal ? { signal } : {}) };
    if (!onDelta) return provider.complete(request);
    for await (const event of provider.stream(request)) {
      if (event.type === 'delta') onDelta(withoutNul(event.text));
      else return event.result;
    }
    throw new LlmError('invalid_response', 'The language model stream ended without a final result.');
  }

  /** Fragments of the bot's knowledge base; a bot without a trained one has no knowledge. */
  private async retrieve(knowledgeId: string | null, query: string): Promise<{ results: SearchResult[]; hasKnowledge: boolean }> {
    const index = await this.index();
    if (!knowledgeId || !index) return { results: [], hasKnowledge: false };
    const settings = await this.store.knowledgeSettings(knowledgeId);
    if (!settings) return { results: [], hasKnowledge: false };
    const stats = await index.stats(knowledgeId);
    if (stats.chunks === 0) return { results: [], hasKnowledge: false };
    const searching = performance.now();
    const results = await index.search(knowledgeId, query, settings);
    retrievalDuration.observe((performance.now() - searching) / 1000);
    return { results, hasKnowledge: true };
  }

  async react(conversationId: string, input: ReactionInput): Promise<ConversationView> {
    await this.store.conversation(conversationId);
    return this.#locks.run(conversationId, async () => {
      const conversation = await this.store.conversation(conversationId);
      const index = conversation.chats.findIndex((chat) => chat.id === input.chatId);
      if (index < 0) throw new HttpError(404, 'Chat not found in this conversation');
      if (conversation.chats[index].role !== 'assistant') {
        throw validationError([{ field: 'chatId', reason: 'validation.invalidValue' }], 'Only assistant messages can get a reaction');
      }
      const chats = conversation.chats.map((chat, i) => (i === index ? { ...chat, reaction: input.reaction } : chat));
      await this.store.saveChats(conversationId, chats);
      await this.store.setTraceReaction(conversationId, input.chatId, input.reaction);
      return this.store.conversationView(conversationId);
    });
  }
}

/** The fragments a provider says it drew on (the offline provider: one), else all it was given. */
function citedFragments<T>(given: readonly T[], usedIndexes: readonly number[] | undefined): readonly T[] {
  if (!usedIndexes) return given;
  return usedIndexes.map((i) => given[i]).filter((f): f is T => f !== undefined);
}

function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '') : text;
}

/**
 * The visitor's "Reintentar" sends the question whose answer failed again. That retry takes the
 * failed exchange's place (the question was stored twice before, once per try); the failure's
 * trace stays. Only the last exchange, only when its answer is the failure answer and the
 * question is the same text.
 */
function withoutFailedTry(conversation: StoredConversation, message: string): StoredConversation {
  const chats = conversation.chats;
  const question = chats[chats.length - 2];
  const answer = chats[chats.length - 1];
  const failedTry = question?.role === 'user' && question.message === message && answer?.role === 'assistant' && answer.message === LLM_FAILURE_ANSWER;
  return failedTry ? { ...conversation, chats: chats.slice(0, -2) } : conversation;
}
