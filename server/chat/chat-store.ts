import { randomUUID } from 'node:crypto';
import { recordChatAnswer } from '../observability/metrics.ts';
import type { Database } from '../db/database.ts';
import type { EntityRecord, EntityService } from '../entities/entity-service.ts';
import type { ListQuery } from '../entities/list-query.ts';
import { HttpError, notFound } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import { system, systemIn } from '../entities/system-context.ts';
import { entities } from '../generated/entities.ts';
import type { Chat, Citation, ConversationView, TraceStatusName } from './chat-types.ts';

/** A bot as the chat needs it (refs as ids). */
export interface ChatBot {
  _id: string;
  name: string;
  description: string;
  questions: string[];
  systemPrompt: string;
  systemPromptWithKnowledge: string;
  knowledgeId: string | null;
  tenant: string | null;
  /** Answer to a question the bot cannot answer ('' = the default no-information answer). */
  fallbackMessage: string;
  welcomeMessage: string;
  widgetTitle: string;
  widgetColor: string;
  widgetPosition: 'left' | 'right';
  widgetTheme: 'auto' | 'light' | 'dark';
  /** Origins allowed to embed and call the chat; empty: any. */
  allowedOrigins: string[];
}

export interface StoredConversation {
  _id: string;
  botId: string;
  contactId: string;
  tenant: string | null;
  chats: Chat[];
}

export interface TraceInput {
  status: TraceStatusName;
  bot: string;
  conversation: string;
  chatId: string;
  userMessage: string;
  assistantMessage: string;
  knowledgeBaseQuery: string;
  knowledgeBase: { source: string; hash: string; content: string }[];
  /** The sources the answer showed the visitor (none for errors and unanswered questions). */
  citations?: Citation[];
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  tokens: number;
  latency: number;
}

/** A knowledge base's search defaults, from its model (fails at start-up if the manifest drops them). */
const KNOWLEDGE_DEFAULTS = {
  maxResults: modelDefault('maxResults'),
  scoreThreshold: modelDefault('scoreThreshold'),
};

function modelDefault(field: string): number {
  const value = entities.knowledge?.fields.find((f) => f.name === field)?.default;
  if (typeof value !== 'number') throw new Error(`manifests/knowledge.json: field "${field}" needs a numeric default (the chat's retrieval uses it)`);
  return value;
}

/**
 * The chat's reads and writes of bots, contacts, conversations and traces, all through the entity
 * service (server/entities/README.md), so manifest defaults, validation and hooks apply to what a
 * visitor creates. Visitors have no user and no role: reads run as system(), creates as
 * systemIn(bot's tenant), so the contact, the conversation and the traces land where the bot's
 * administrators can see them. system() also sets what is read-only for every client: a contact's
 * `verified`, a conversation's contact, bot and chats (the console may only view and delete those).
 *
 * The hot path (a message) reads with `populate: false`: refs stay ids, one query per read.
 */
export class ChatStore {
  readonly #statusIds = new Map<string, string>();

  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  /** The system acting inside one tenant (null: records without a tenant). */
  contextFor(tenant: string | null): RequestContext {
    return systemIn(tenant);
  }

  async bot(id: string): Promise<ChatBot> {
    const [record] = await this.service.findByIds('bot', system(), [id], IDS);
    if (!record) throw notFound('Bot not found');
    const tenantColumn = this.service.definition('bot').tenantColumn ?? 'tenant';
    return {
      _id: String(record._id),
      name: String(record.name ?? ''),
      description: String(record.description ?? ''),
      questions: Array.isArray(record.questions) ? record.questions.filter((q): q is string => typeof q === 'string') : [],
      systemPrompt: String(record.systemPrompt ?? ''),
      systemPromptWithKnowledge: String(record.systemPromptWithKnowledge ?? ''),
      knowledgeId: typeof record.knowledge === 'string' && record.knowledge !== '' ? record.knowledge : null,
      tenant: (record[tenantColumn] as string | null | undefined) ?? null,
      fallbackMessage: String(record.fallbackMessage ?? ''),
      welcomeMessage: String(record.welcomeMessage ?? ''),
      widgetTitle: String(record.widgetTitle ?? ''),
      widgetColor: typeof record.widgetColor === 'string' && record.widgetColor !== '' ? record.widgetColor : '#228be6',
      widgetPosition: record.widgetPosition === 'left' ? 'left' : 'right',
      widgetTheme: record.widgetTheme === 'light' || record.widgetTheme === 'dark' ? record.widgetTheme : 'auto',
      allowedOrigins: Array.isArray(record.allowedOrigins) ? record.allowedOrigins.filter((o): o is string => typeof o === 'string') : [],
    };
  }

  /**
   * maxResults / scoreThreshold of a knowledge base, null when it is gone. Read through the
   * service; a value missing from an old row takes the manifest's default (manifests/knowledge.json).
   */
  async knowledgeSettings(id: string): Promise<{ maxResults: number; scoreThreshold: number } | null> {
    const [record] = await this.service.findByIds('knowledge', system(), [id], IDS);
    if (!record) return null;
    const number = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
    return {
      maxResults: number(record.maxResults, KNOWLEDGE_DEFAULTS.maxResults),
      scoreThreshold: number(record.scoreThreshold, KNOWLEDGE_DEFAULTS.scoreThreshold),
    };
  }

  /**
   * A new contact from what the visitor typed, always. A visitor proves nothing by typing an
   * e-mail, so an existing contact with that e-mail is never looked up: its name, memory and
   * conversations stay private (issue 16; issue 20 adds e-mail verification and merging). A
   * returning visitor therefore gets a second contact an administrator can merge later.
   * Validated as any create (name length, e-mail format: a 400 naming the field).
   */
  async newContact(tenant: string | null, name: string, email: string): Promise<EntityRecord> {
    // verified is read-only for every client; system() sets it in the same create.
    return this.service.create('contact', this.contextFor(tenant), { name, email, verified: false });
  }

  async contactMemory(contactId: string): Promise<{ attribute?: string; content?: string }[]> {
    const [record] = await this.service.findByIds('contact', system(), [contactId], IDS);
    const memory = record?.memory;
    return Array.isArray(memory) ? memory : [];
  }

  /**
   * A new conversation. Its _id is a random UUID v4 (122 random bits), not the entity service's
   * time-ordered v7: the id is the visitor's only key to the conversation, so it must not be guessable.
   */
  async createConversation(tenant: string | null, contactId: string, botId: string): Promise<string> {
    const record = await this.service.create('conversation', this.contextFor(tenant), { contact: contactId, bot: botId, chats: [] }, { id: randomUUID(), populate: false });
    return String(record._id);
  }

  async conversation(id: string): Promise<StoredConversation> {
    const [record] = await this.service.findByIds('conversation', system(), [id], IDS);
    if (!record) throw notFound('Conversation not found');
    const tenantColumn = this.service.definition('conversation').tenantColumn ?? 'tenant';
    return {
      _id: String(record._id),
      botId: String(record.bot),
      contactId: String(record.contact),
      tenant: (record[tenantColumn] as string | null | undefined) ?? null,
      chats: Array.isArray(record.chats) ? (record.chats as Chat[]) : [],
    };
  }

  /** The conversation as the public endpoints answer it (no tenant, refs as { _id, name }). */
  async conversationView(id: string): Promise<ConversationView> {
    const [record] = await this.service.findByIds('conversation', system(), [id]);
    if (!record) throw notFound('Conversation not found');
    return {
      _id: String(record._id),
      contact: (record.contact as ConversationView['contact']) ?? null,
      bot: (record.bot as ConversationView['bot']) ?? null,
      chats: Array.isArray(record.chats) ? (record.chats as Chat[]) : [],
      createdAt: String(record.createdAt),
      updatedAt: String(record.updatedAt),
    };
  }

  async saveChats(id: string, chats: Chat[]): Promise<void> {
    try {
      await this.service.update('conversation', system(), id, { chats }, IDS);
    } catch (error) {
      // Deleted from the console while the model was answering.
      if (error instanceof HttpError && error.statusCode === 404) throw notFound('Conversation not found');
      throw error;
    }
  }

  /**
   * The conversation's new chats and the trace of the answer, in one transaction: a failure
   * (validation, constraint, lost connection, a hook) leaves neither, never a message without its trace.
   */
  async saveChatsWithTrace(id: string, chats: Chat[], tenant: string | null, trace: TraceInput): Promise<void> {
    recordChatAnswer(trace);
    const status = await this.statusId(trace.status);
    // Checked inside the conversation's lock (ChatService): only a console delete can race it,
    // and then the trace describes a conversation deleted a moment later, as any older trace may.
    await this.database.transaction(async () => {
      await this.saveChats(id, chats);
      await this.service.create('bottrace', this.contextFor(tenant), { ...trace, status }, IDS).catch((error: unknown) => {
        // The trace is built by the server, not typed by the visitor: an invalid one is a bug (500).
        if (error instanceof HttpError && error.statusCode === 400) {
          throw new Error(`The answer's trace is invalid: ${JSON.stringify(error.inputErrors ?? error.message)}`, { cause: error });
        }
        throw error;
      });
    });
  }

  /** The id of the BotTraceStatus named `name`; created when missing (identity seeds ok and error). */
  async statusId(name: TraceStatusName): Promise<string> {
    const cached = this.#statusIds.get(name);
    if (cached && (await this.service.findByIds('bottracestatus', system(), [cached], IDS)).length > 0) return cached;
    const [found] = await this.service.find('bottracestatus', system(), whereEquals('name', name, 1), IDS);
    let id = found ? String(found._id) : null;
    if (!id) {
      try {
        id = String((await this.service.create('bottracestatus', this.contextFor(null), { name, description: defaultStatusDescription(name) }, IDS))._id);
      } catch (error) {
        // Another request created it between our read and our write (unique name).
        if (!(error instanceof HttpError && error.statusCode === 409)) throw error;
        return this.statusId(name);
      }
    }
    this.#statusIds.set(name, id);
    return id;
  }

  /** Sets (or clears) the reaction of the trace of one assistant chat, when there is one. */
  async setTraceReaction(conversationId: string, chatId: string, reaction: string | null): Promise<void> {
    const query = whereEquals('conversation', conversationId, 10);
    query.filters.push({ column: 'chatId', operator: 'eq', value: chatId, list: false });
    const traces = await this.service.find('bottrace', system(), query, IDS);
    for (const trace of traces) await this.service.update('bottrace', system(), String(trace._id), { reaction }, IDS);
  }
}

/** The chat's reads and writes answer refs as ids (one query each, no ref look-ups). */
const IDS = { populate: false } as const;

function whereEquals(column: string, value: string, limit: number): ListQuery {
  return { limit, offset: 0, orderBy: null, order: 'asc', search: null, filters: [{ column, operator: 'eq', value, list: false }] };
}

function defaultStatusDescription(name: TraceStatusName): string {
  const descriptions: Record<TraceStatusName, string> = {
    ok: 'The bot answered.',
    error: 'The language model failed; the trace records why.',
    no_answer: 'Unanswered: nothing relevant in the knowledge base, or the model said it had no information.',
  };
  return descriptions[name];
}
