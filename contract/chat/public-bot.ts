/** GET /api/chat/bot/:id: only what a visitor may see (server/chat, read by the chat widget). */
export interface PublicBot {
  _id: string;
  name: string;
  questions: string[];
  welcomeMessage: string;
  /** The widget's header and launcher (the bot name when unset). */
  widgetTitle: string;
  widgetColor: string;
  widgetPosition: 'left' | 'right';
  /** Light or dark chat and widget; auto follows the visitor's browser (prefers-color-scheme). */
  widgetTheme: 'auto' | 'light' | 'dark';
}
