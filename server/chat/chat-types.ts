import { entities } from '../generated/entities.ts';
import type { ChatMessage, Citation, ConversationView } from '../../contract/chat/conversation-view.ts';
import type { PublicBot } from '../../contract/chat/public-bot.ts';

/** The Reaction enumeration (manifests/enums.json), read from the generated model. */
export const REACTIONS: readonly string[] = (() => {
  const field = entities.bottrace?.fields.find((f) => f.name === 'reaction');
  if (!field?.values?.length) throw new Error('The bottrace model has no reaction values; run npm run generate');
  return field.values.map(String);
})();

export type Reaction = string;

// The wire shapes are the contract's (contract/chat), shared with the chat widget.
export type Chat = ChatMessage;
export type { Citation, ConversationView, PublicBot };

/** Names of the BotTraceStatus records a trace points at (seeded by identity, created if missing). */
export const TRACE_STATUS = { ok: 'ok', error: 'error', noAnswer: 'no_answer' } as const;
export type TraceStatusName = (typeof TRACE_STATUS)[keyof typeof TRACE_STATUS];

/**
 * The assistant chat stored when the model fails, so the conversation never ends on an unanswered
 * question; the trace (status error) keeps the real cause for the administrator.
 */
export const LLM_FAILURE_ANSWER = 'Lo siento, ahora mismo no puedo responder. Por favor, inténtalo de nuevo en unos minutos.';
