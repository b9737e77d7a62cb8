import type { SharedLocksAndCounters } from '../db/coordination/coordination.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';
import type { ChatLimits } from './chat-limits.ts';
import type { ChatService, DeltaListener } from './chat-service.ts';
import type { ConversationView, PublicBot } from './chat-types.ts';
import { parseMessageInput, parseReactionInput, parseStartInput } from './chat-validation.ts';
import { KeyedLocks } from './conversation-locks.ts';
import type { ContactVerification } from './contact-verification.ts';

type ConversationInput = { conversationId: string; body: unknown };
/** A message's answer as it streams: the deltas as the model writes them, the saved conversation at the end. */
export type StreamedAnswer = (onDelta: DeltaListener, signal: AbortSignal) => Promise<ConversationView>;

/**
 * The visitors' chat (docs/product-rules.md#calls Chat): public, since visitors have no account.
 * Each operation reads the body as sent (chat-validation.ts, contact-verification.ts); a message
 * or a reaction runs under its conversation's lock, the one every instance respects with
 * `coordination` (PostgreSQL or Redis), so the service's own lock then only orders this
 * instance's share. Rate limits and the bot's allowed origins are HTTP's (chat-routes.ts,
 * chat-visitor-routes.ts): they read the address and the Origin header.
 */
export interface ChatVisitorOperations {
  start: Operation<unknown, ConversationView & { token: string }>;
  conversation: Operation<{ id: string }, ConversationView>;
  publicBot: Operation<{ id: string }, PublicBot>;
  message: Operation<ConversationInput, ConversationView>;
  /** Checks a message to stream (its text: 400; its conversation: 404) and answers how to run it. */
  streamMessage: Operation<ConversationInput, StreamedAnswer>;
  react: Operation<ConversationInput, ConversationView>;
  resume: Operation<unknown, Awaited<ReturnType<ContactVerification['resume']>>>;
  requestCode: Operation<{ conversationId: string }, Awaited<ReturnType<ContactVerification['requestCode']>>>;
  verify: Operation<ConversationInput, Awaited<ReturnType<ContactVerification['verify']>>>;
}

export function createChatVisitorOperations(deps: {
  chat: ChatService;
  verification: ContactVerification;
  limits: ChatLimits;
  coordination: SharedLocksAndCounters | null;
  defineOperation: DefineOperation;
}): ChatVisitorOperations {
  const { chat, verification, limits, defineOperation: define } = deps;
  const shared = deps.coordination ? new KeyedLocks(deps.coordination) : null;
  const guard = <T>(conversationId: string, work: () => Promise<T>): Promise<T> => (shared ? shared.run(conversationId, work) : work());
  return {
    start: define('public', async (_caller, body) => chat.start(parseStartInput(body))),
    conversation: define('public', async (_caller, { id }: { id: string }) => chat.conversation(id)),
    publicBot: define('public', async (_caller, { id }: { id: string }) => chat.publicBot(id)),
    message: define('public', async (_caller, { conversationId, body }: ConversationInput) => {
      const message = parseMessageInput(body, limits.maxMessageChars);
      return guard(conversationId, () => chat.message(conversationId, message));
    }),
    streamMessage: define('public', async (_caller, { conversationId, body }: ConversationInput): Promise<StreamedAnswer> => {
      const message = parseMessageInput(body, limits.maxMessageChars);
      // Unknown conversations answer a plain 404 before the event stream opens.
      await chat.conversation(conversationId);
      return (onDelta, signal) => guard(conversationId, () => chat.message(conversationId, message, onDelta, signal));
    }),
    react: define('public', async (_caller, { conversationId, body }: ConversationInput) => {
      const reaction = parseReactionInput(body, conversationId);
      return guard(conversationId, () => chat.react(conversationId, reaction));
    }),
    resume: define('public', async (_caller, body) => verification.resume(body)),
    requestCode: define('public', async (_caller, { conversationId }: { conversationId: string }) => verification.requestCode(conversationId)),
    verify: define('public', async (_caller, { conversationId, body }: ConversationInput) => verification.verify(conversationId, body)),
  };
}
