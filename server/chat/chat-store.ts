import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { EntityRecord, EntityService } from '../entities/entity-service.ts';
import { decodeRow, encodeValues } from '../entities/record-codec.ts';
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
 * The chat's reads and writes of bots, contacts, conversations and traces. Visitors have no user
 * and no role, so every write runs as the system within the BOT's tenant: the contact, the
 * conversation and the traces land where the bot's administrators can see them.
 *
 * Conversations are written here rather than through EntityService.create/update because their
 * contact, bot and chats are readonly in the manifest (the console may only view and delete them).
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
    const runtime = this.service.runtime('bot');
    const row = await this.database.first(
      this.database.kysely.selectFrom(runtime.table).select(runtime.selectColumns).where('_id', '=', id).limit(1).compile(),
    );
    if (!row) throw notFound('Bot not found');
    // Decoded without populating refs: the knowledge is wanted as its id.
    const record = decodeRow(runtime, this.database.dialect, row);
    return {
      _id: String(record._id),
      name: String(record.name ?? ''),
      description: String(record.description ?? ''),
      questions: Array.isArray(record.questions) ? record.questions.filter((q): q is string => typeof q === 'string') : [],
      systemPrompt: String(record.systemPrompt ?? ''),
      systemPromptWithKnowledge: String(record.systemPromptWithKnowledge ?? ''),
      knowledgeId: typeof record.knowledge === 'string' && record.knowledge !== '' ? record.knowledge : null,
      tenant: (record[runtime.tenantColumn ?? 'tenant'] as string | null | undefined) ?? null,
      fallbackMessage: String(record.fallbackMessage ?? ''),
      welcomeMessage: String(record.welcomeMessage ?? ''),
      widgetTitle: String(record.widgetTitle ?? ''),
      widgetColor: typeof record.widgetColor === 'string' && record.widgetColor !== '' ? record.widgetColor : '#228be6',
      widgetPosition: record.widgetPosition === 'left' ? 'left' : 'right',
      allowedOrigins: Array.isArray(record.allowedOrigins) ? record.allowedOrigins.filter((o): o is string => typeof o === 'string') : [],
    };
  }

  /**
   * maxResults / scoreThreshold of a knowledge base, null when it is gone. Read through the
   * service; a value missing from an old row takes the manifest's default (manifests/knowledge.json).
   */
  async knowledgeSettings(id: string): Promise<{ maxResults: number; scoreThreshold: number } | null> {
    const [record] = await this.service.findByIds('knowledge', system(), [id]);
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
   */
  async newContact(tenant: string | null, name: string, email: string): Promise<EntityRecord> {
    const contact = await this.service.create('contact', this.contextFor(tenant), { name, email });
    // verified is read-only for every client, so it is set here rather than through create.
    const runtime = this.service.runtime('contact');
    await this.database.run(
      this.database.kysely.updateTable(runtime.table).set(encodeValues(runtime, this.database.dialect, { verified: false })).where('_id', '=', contact._id as string).compile(),
    );
    return { ...contact, verified: false };
  }

  async contactMemory(contactId: string): Promise<{ attribute?: string; content?: string }[]> {
    const runtime = this.service.runtime('contact');
    const row = await this.database.first(
      this.database.kysely.selectFrom(runtime.table).select(['memory']).where('_id', '=', contactId).limit(1).compile(),
    );
    const memory = row ? this.database.dialect.decode('json', row.memory) : null;
    return Array.isArray(memory) ? memory : [];
  }

  /**
   * A new conversation. Its _id is a random UUID v4 (122 random bits), not the entity service's
   * time-ordered v7: the id is the visitor's only key to the conversation, so it must not be guessable.
   */
  async createConversation(tenant: string | null, contactId: string, botId: string): Promise<string> {
    const runtime = this.service.runtime('conversation');
    const id = randomUUID();
    const now = new Date().toISOString();
    const values: Record<string, unknown> = { _id: id, contact: contactId, bot: botId, chats: [], createdAt: now, updatedAt: now };
    if (runtime.tenantColumn) values[runtime.tenantColumn] = tenant;
    await this.database.run(
      this.database.kysely.insertInto(runtime.table).values(encodeValues(runtime, this.database.dialect, values)).compile(),
    );
    return id;
  }

  async conversation(id: string): Promise<StoredConversation> {
    const runtime = this.service.runtime('conversation');
    const tenantColumn = runtime.tenantColumn ?? 'tenant';
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(runtime.table)
        .select(['_id', 'bot', 'contact', 'chats', ...(runtime.tenantColumn ? [tenantColumn] : [])])
        .where('_id', '=', id)
        .limit(1)
        .compile(),
    );
    if (!row) throw notFound('Conversation not found');
    const chats = this.database.dialect.decode('json', row.chats);
    return {
      _id: String(row._id),
      botId: String(row.bot),
      contactId: String(row.contact),
      tenant: (row[tenantColumn] as string | null | undefined) ?? null,
      chats: Array.isArray(chats) ? (chats as Chat[]) : [],
    };
  }

  /** The conversation as the public endpoints answer it (no tenant, refs as { _id, name }). */
  async conversationView(id: string): Promise<ConversationView> {
    const runtime = this.service.runtime('conversation');
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(runtime.table)
        .select(['_id', 'contact', 'bot', 'chats', 'createdAt', 'updatedAt'])
        .where('_id', '=', id)
        .limit(1)
        .compile(),
    );
    if (!row) throw notFound('Conversation not found');
    const [record] = await this.decode('conversation', [row]);
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
    const changed = await this.database.run(this.saveChatsQuery(id, chats));
    // Deleted from the console while the model was answering.
    if (changed === 0) throw notFound('Conversation not found');
  }

  private saveChatsQuery(id: string, chats: Chat[]) {
    const runtime = this.service.runtime('conversation');
    const values = encodeValues(runtime, this.database.dialect, { chats, updatedAt: new Date().toISOString() });
    return this.database.kysely.updateTable(runtime.table).set(values).where('_id', '=', id).compile();
  }

  /**
   * The conversation's new chats and the trace of the answer, in one transaction: a failure
   * (validation, constraint, lost connection) leaves neither, never a message without its trace.
   */
  async saveChatsWithTrace(id: string, chats: Chat[], tenant: string | null, trace: TraceInput): Promise<void> {
    const status = await this.statusId(trace.status);
    const prepared = await this.service.prepareInsert(this.service.runtime('bottrace'), this.contextFor(tenant), { ...trace, status });
    // The trace is built by the server, not typed by the visitor: an invalid one is a bug (500).
    if (!prepared.ok) throw new Error(`The answer's trace is invalid: ${JSON.stringify(prepared.errors)}`);
    // Checked inside the conversation's lock (ChatService): only a console delete can race it,
    // and then the trace describes a conversation deleted a moment later, as any older trace may.
    await this.conversation(id);
    await this.database.runAll([this.saveChatsQuery(id, chats), prepared.insert.query]);
  }

  /** The id of the BotTraceStatus named `name`; created when missing (identity seeds ok and error). */
  async statusId(name: TraceStatusName): Promise<string> {
    const cached = this.#statusIds.get(name);
    if (cached && (await this.exists('bottracestatus', cached))) return cached;
    const runtime = this.service.runtime('bottracestatus');
    const row = await this.database.first(
      this.database.kysely.selectFrom(runtime.table).select(['_id']).where('name', '=', name).limit(1).compile(),
    );
    let id = row ? String(row._id) : null;
    if (!id) {
      try {
        id = String((await this.service.create('bottracestatus', this.contextFor(null), { name, description: defaultStatusDescription(name) }))._id);
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
    const runtime = this.service.runtime('bottrace');
    const values = encodeValues(runtime, this.database.dialect, { reaction, updatedAt: new Date().toISOString() });
    await this.database.run(
      this.database.kysely
        .updateTable(runtime.table)
        .set(values)
        .where('conversation', '=', conversationId)
        .where('chatId', '=', chatId)
        .compile(),
    );
  }

  private async exists(entity: string, id: string): Promise<boolean> {
    const runtime = this.service.runtime(entity);
    return (await this.database.first(this.database.kysely.selectFrom(runtime.table).select(['_id']).where('_id', '=', id).compile())) !== undefined;
  }

  private async decode(entity: string, rows: Record<string, unknown>[]): Promise<EntityRecord[]> {
    return this.service.toRecords(this.service.runtime(entity), rows);
  }
}

function defaultStatusDescription(name: TraceStatusName): string {
  const descriptions: Record<TraceStatusName, string> = {
    ok: 'The bot answered.',
    error: 'The language model failed; the trace records why.',
    no_answer: 'Unanswered: nothing relevant in the knowledge base, or the model said it had no information.',
  };
  return descriptions[name];
}
