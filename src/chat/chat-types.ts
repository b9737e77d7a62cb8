import type { Reaction } from '../generated/types.ts';

/** One message of a conversation (Conversation.chats). */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  createdAt: string;
  reaction?: Reaction | null;
}

/** What /api/chat/start, /conversation, /message and /reaction answer. */
export interface ChatConversation {
  _id: string;
  contact: { _id: string; name?: string | null } | null;
  bot: { _id: string; name?: string | null } | null;
  chats: ChatMessage[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/chat/bot/:id. */
export interface ChatBot {
  _id: string;
  name: string;
  questions: string[];
}
