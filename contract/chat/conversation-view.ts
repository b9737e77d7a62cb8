/**
 * A conversation as the public chat answers it (POST /api/chat/start, GET
 * /api/chat/conversation/:id, POST /api/chat/message/:id and /reaction/:id): the stored record,
 * refs as { _id, name }. Written by server/chat, read by the chat widget (src/chat). `TReaction`
 * lets the console narrow reactions to its generated Reaction union (contract/ imports from
 * neither side).
 */
export interface ConversationView<TReaction extends string = string> {
  _id: string;
  contact: { _id: string; name?: string | null } | null;
  bot: { _id: string; name?: string | null } | null;
  chats: ChatMessage<TReaction>[];
  createdAt: string;
  updatedAt: string;
  /** start, verify and resume only: the signed token the browser keeps to come back. */
  token?: string;
}

/** One entry of Conversation.chats (manifests/conversation.json). */
export interface ChatMessage<TReaction extends string = string> {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  createdAt: string;
  reaction?: TReaction | null;
  /** Assistant answers: the knowledge fragments the answer rests on. */
  citations?: Citation[];
}

/** One source of an answer: where it came from, which fragment (its hash), a short excerpt. */
export interface Citation {
  source: string;
  fragmentId: string;
  excerpt: string;
}
