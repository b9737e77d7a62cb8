import { entities } from '../generated/entities.ts';

/** The Reaction enumeration (manifests/enums.json), read from the generated model. */
export const REACTIONS: readonly string[] = (() => {
  const field = entities.bottrace?.fields.find((f) => f.name === 'reaction');
  if (!field?.values?.length) throw new Error('The bottrace model has no reaction values; run npm run generate');
  return field.values.map(String);
})();

export type Reaction = string;

/** One entry of Conversation.chats (manifests/conversation.json). */
export interface Chat {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  createdAt: string;
  reaction?: Reaction | null;
  /** Assistant answers: the knowledge fragments the answer rests on. */
  citations?: Citation[];
}

/** One source of an answer: where it came from, which fragment (its hash), a short excerpt. */
export interface Citation {
  source: string;
  fragmentId: string;
  excerpt: string;
}

/** What the public chat answers for a conversation: the stored record, refs as { _id, name }. */
export interface ConversationView {
  _id: string;
  contact: { _id: string; name?: string | null } | null;
  bot: { _id: string; name?: string | null } | null;
  chats: Chat[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/chat/bot/:id: only what a visitor may see. */
export interface PublicBot {
  _id: string;
  name: string;
  questions: string[];
  welcomeMessage: string;
  /** The widget's header and launcher (the bot name when unset). */
  widgetTitle: string;
  widgetColor: string;
  widgetPosition: 'left' | 'right';
}

/** Names of the BotTraceStatus records a trace points at (seeded by identity, created if missing). */
export const TRACE_STATUS = { ok: 'ok', error: 'error', noAnswer: 'no_answer' } as const;
export type TraceStatusName = (typeof TRACE_STATUS)[keyof typeof TRACE_STATUS];

/**
 * The assistant chat stored when the model fails, so the conversation never ends on an unanswered
 * question; the trace (status error) keeps the real cause for the administrator.
 */
export const LLM_FAILURE_ANSWER = 'Lo siento, ahora mismo no puedo responder. Por favor, inténtalo de nuevo en unos minutos.';
