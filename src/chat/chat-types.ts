import type { Reaction } from '../generated/types.ts';
import type { ChatMessage as WireChatMessage, Citation, ConversationView } from '../../contract/chat/conversation-view.ts';
import type { PublicBot } from '../../contract/chat/public-bot.ts';

/** One message of a conversation (Conversation.chats), reactions as the generated union. */
export type ChatMessage = WireChatMessage<Reaction>;

/** One source of an answer. */
export type ChatCitation = Citation;

/** What /api/chat/start, /conversation, /message and /reaction answer. */
export type ChatConversation = ConversationView<Reaction>;

/** GET /api/chat/bot/:id. */
export type ChatBot = PublicBot;
