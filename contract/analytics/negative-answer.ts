/**
 * One answer a visitor rated negatively, as GET /api/chat/analytics lists it beside the unanswered
 * questions (server/chat/analytics/chat-analytics.ts; src/chat/analytics/negative-answers.tsx).
 */
export interface NegativeAnswer {
  question: string;
  answer: string;
  reaction: string;
  ratedAt: string;
  bot: { _id: string; name: string | null; knowledge: string | null };
  trace: string;
  conversation: string | null;
}

/** The reactions that say an answer failed the visitor: Incorrecto, Poco útil, Confuso. */
export const NEGATIVE_REACTIONS = ['Incorrect', 'Unhelpful', 'Unclear'] as const;
