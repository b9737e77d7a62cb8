import type { UnansweredQuestion } from './unanswered-question.ts';
import type { NegativeAnswer } from './negative-answer.ts';

/**
 * GET /api/chat/analytics: the bots' answers over a range of days, aggregated in SQL
 * (server/chat/analytics/chat-analytics.ts), drawn by the analytics page. `TReaction` lets the
 * console narrow reactions to its generated Reaction union (contract/ cannot import it).
 */
export interface ChatAnalytics<TReaction extends string = string> {
  from: string;
  to: string;
  totals: { answers: number; errors: number; unanswered: number; avgLatencyMs: number; tokens: number; reactions: number };
  perDay: { day: string; answers: number; errors: number; unanswered: number; avgLatencyMs: number; inputTokens: number; outputTokens: number }[];
  latency: { bucket: string; answers: number }[];
  reactions: { reaction: TReaction; count: number }[];
  /** Questions the bot could not answer (trace status no_answer), most recently asked first. */
  unansweredQuestions: UnansweredQuestion[];
  /** Answers rated Incorrect, Unhelpful or Unclear, most recent first: the same to-do list. */
  negativeAnswers: NegativeAnswer[];
  /** The no_answer status's id, for a link to the trace list filtered on it (null before it is seeded). */
  noAnswerStatus: string | null;
}
