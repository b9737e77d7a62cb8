import type { Reaction } from '../generated/types.ts';

/** One message of a conversation (Conversation.chats). */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  createdAt: string;
  reaction?: Reaction | null;
  /** Assistant answers: the knowledge fragments they rest on. */
  citations?: ChatCitation[];
}

/** One source of an answer (server/chat/cite-sources.ts). */
export interface ChatCitation {
  source: string;
  fragmentId: string;
  excerpt: string;
}

/** What /api/chat/start, /conversation, /message and /reaction answer. */
export interface ChatConversation {
  _id: string;
  contact: { _id: string; name?: string | null } | null;
  bot: { _id: string; name?: string | null } | null;
  chats: ChatMessage[];
  createdAt: string;
  updatedAt: string;
  /** start, verify and resume only: the signed token the browser keeps to come back. */
  token?: string;
}

/** GET /api/chat/bot/:id. */
export interface ChatBot {
  _id: string;
  name: string;
  questions: string[];
  welcomeMessage: string;
  widgetTitle: string;
  widgetColor: string;
  widgetPosition: 'left' | 'right';
}
