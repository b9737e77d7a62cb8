import { randomUUID } from 'node:crypto';
import type { PreviewAnswer, PreviewFragment, PreviewTurn } from '../../contract/chat/preview-answer.ts';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { RequestContext } from '../http/request-context.ts';
import { validationError } from '../http/http-error.ts';
import type { LlmMessage, LlmProvider, LlmRequest } from '../llm/llm-provider.ts';
import type { RetrievalIndex } from '../rag/search/retrieval-index.ts';
import type { SearchResult } from '../rag/rag-types.ts';
import { ChatLlm } from './chat-llm.ts';
import { ChatAnswerError, ChatService, type IndexSource } from './chat-service.ts';
import { ChatStore, type ChatBot, type StoredConversation, type TraceInput } from './chat-store.ts';
import type { Chat, ConversationView } from './chat-types.ts';
import type { ConversationTokens } from './conversation-token.ts';
import type { PreviewInput } from './chat-preview-validation.ts';

/**
 * The administrator's preview of a bot (issue 28 item 4): the visitor's answer pipeline itself
 * (ChatService.message: retrieval, prompt, model, fallback decision, citations), run against a
 * store that keeps everything in memory. No contact, conversation or trace row is written and
 * the chat-answer metric is not counted, so analytics only ever see visitors. The model's call
 * and the retrieval duration are still counted in /metrics: the preview really spends them.
 *
 * Running the same ChatService (not a copy of its steps) keeps the preview honest when the
 * answer composition changes: what the admin sees is what a visitor would get.
 */
export class ChatPreview {
  constructor(
    private readonly deps: {
      database: Database;
      service: EntityService;
      store: ChatStore;
      llm: ChatLlm;
      index: IndexSource;
      tokens: ConversationTokens;
    },
  ) {}

  /** Answers `input.message` as bot `botId` would, the bot read with the caller's rights (tenant). */
  async run(botId: string, context: RequestContext, input: PreviewInput, signal?: AbortSignal): Promise<PreviewAnswer> {
    // The caller's read, not system(): another tenant's bot is a 404, as in the console.
    await this.deps.service.findById('bot', context, botId, { populate: false });
    const bot = { ...(await this.deps.store.bot(botId)), ...input.draft };
    if (input.draft.knowledgeId) {
      const [knowledge] = await this.deps.service.findByIds('knowledge', context, [input.draft.knowledgeId], { populate: false });
      if (!knowledge) throw validationError([{ field: 'draft.knowledge', reason: 'validation.invalidValue' }], 'draft.knowledge: no knowledge base with that id that you can read');
    }

    const store = new PreviewStore(this.deps.database, this.deps.service, bot, input.history);
    const search = new SearchRecorder(this.deps.index);
    const llm = new PromptRecorder(this.deps.llm);
    const chat = new ChatService(store, llm, search.source, this.deps.tokens);
    let error: PreviewAnswer['error'] = null;
    try {
      await chat.message(store.conversationId, input.message, undefined, signal);
    } catch (failure) {
      if (!(failure instanceof ChatAnswerError)) throw failure;
      error = { code: failure.failure.code, message: failure.failure.message };
    }
    const trace = store.trace;
    const answer = store.chats.at(-1);
    if (!trace || !answer || answer.role !== 'assistant') throw new Error('The chat pipeline ended without an answer or a trace (server/chat/chat-preview.ts)');
    const used = new Set(trace.knowledgeBase.map((fragment) => fragment.hash));
    const fragments: PreviewFragment[] = search.results.map((r) => ({ source: r.source, hash: r.hash, content: r.content, score: r.score, used: used.has(r.hash) }));
    return {
      status: trace.status === 'ok' ? 'ok' : trace.status === 'error' ? 'error' : 'no_answer',
      answer: answer.message,
      citations: answer.citations ?? [],
      error,
      fragments,
      prompt: llm.messages ? llm.messages.map((m) => ({ role: m.role, content: m.content })) : null,
      provider: trace.provider,
      model: trace.model,
      inputTokens: trace.inputTokens,
      outputTokens: trace.outputTokens,
      tokens: trace.tokens,
      latencyMs: trace.latency,
    };
  }
}

/** A ChatStore whose one conversation lives in memory: the preview's answer writes no row. */
class PreviewStore extends ChatStore {
  readonly conversationId = `preview-${randomUUID()}`;
  chats: Chat[];
  trace: TraceInput | null = null;
  readonly #createdAt = new Date().toISOString();

  constructor(
    database: Database,
    service: EntityService,
    private readonly previewBot: ChatBot,
    history: readonly PreviewTurn[],
  ) {
    super(database, service);
    this.chats = history.map((turn) => ({ id: randomUUID(), role: turn.role, message: turn.message, createdAt: this.#createdAt }));
  }

  override async bot(): Promise<ChatBot> {
    return this.previewBot;
  }

  override async conversation(): Promise<StoredConversation> {
    return { _id: this.conversationId, botId: this.previewBot._id, contactId: '', tenant: this.previewBot.tenant, chats: this.chats };
  }

  /** The administrator is not a contact: no memory. */
  override async contactMemory(): Promise<{ attribute?: string; content?: string }[]> {
    return [];
  }

  override async saveChats(_id: string, chats: Chat[]): Promise<void> {
    this.chats = chats;
  }

  /** Kept here, not written, and not counted in the chat-answer metric. */
  override async saveChatsWithTrace(_id: string, chats: Chat[], _tenant: string | null, trace: TraceInput): Promise<void> {
    this.chats = chats;
    this.trace = trace;
  }

  override async conversationView(): Promise<ConversationView> {
    return { _id: this.conversationId, contact: null, bot: { _id: this.previewBot._id, name: this.previewBot.name }, chats: this.chats, createdAt: this.#createdAt, updatedAt: this.#createdAt };
  }

  override async setTraceReaction(): Promise<void> {}
}

/** The retrieval index as the chat sees it, keeping what each search returned (with scores). */
class SearchRecorder {
  results: SearchResult[] = [];

  constructor(private readonly index: IndexSource) {}

  readonly source: IndexSource = async () => {
    const index = await this.index();
    if (!index) return null;
    const recorder: RetrievalIndex = {
      replace: (...args) => index.replace(...args),
      clear: (...args) => index.clear(...args),
      stats: (...args) => index.stats(...args),
      search: async (...args) => {
        this.results = await index.search(...args);
        return this.results;
      },
    };
    return recorder;
  };
}

/** The chat's model, keeping the messages it was sent (the prompt the preview shows). */
class PromptRecorder extends ChatLlm {
  messages: LlmMessage[] | null = null;

  constructor(private readonly inner: ChatLlm) {
    // Never read: provider() and settings() ask the chat's own ChatLlm.
    super(() => Promise.reject(new Error('PromptRecorder reads no configuration of its own (server/chat/chat-preview.ts)')));
  }

  override async provider(): Promise<LlmProvider> {
    const provider = await this.inner.provider();
    const record = (request: LlmRequest) => {
      this.messages = request.messages;
    };
    return {
      name: provider.name,
      model: provider.model,
      complete: (request) => {
        record(request);
        return provider.complete(request);
      },
      stream: (request) => {
        record(request);
        return provider.stream(request);
      },
    };
  }

  override settings() {
    return this.inner.settings();
  }
}
