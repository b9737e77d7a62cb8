/**
 * One question the bots could not answer (trace status no_answer), as GET /api/chat/analytics
 * lists it (server/chat/analytics/chat-analytics.ts) and the analytics page shows it
 * (src/chat/analytics/unanswered-questions.tsx). Shared by server/ and the console: contract/
 * imports from neither.
 */
export interface UnansweredQuestion {
  question: string;
  /** How many times it was asked (same text, same bot) in the range. */
  count: number;
  lastAskedAt: string;
  bot: { _id: string; name: string | null; knowledge: string | null };
  /** The trace and conversation of its latest asking. */
  trace: string;
  conversation: string | null;
}
