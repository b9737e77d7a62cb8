/**
 * The seam between the chat and whatever produces answers: an OpenAI-compatible server or the
 * built-in offline provider. Callers depend on this file only, never on a concrete provider.
 */

export type LlmRole = 'system' | 'user' | 'assistant';

export interface LlmMessage {
  role: LlmRole;
  content: string;
}

/** One retrieved knowledge fragment, as the retrieval layer hands it over. */
export interface LlmFragment {
  content: string;
  /** Retrieval score (higher is better); used only to break ties. */
  score: number;
  /** Where the fragment came from (source name, file or URL), shown to the model and in traces. */
  source: string;
}

/**
 * Structured retrieval context. Model-backed providers ignore it (the same fragments are already
 * rendered into the system prompt); the offline provider answers from it, so it never has to
 * parse a prompt that an administrator may have rewritten.
 */
export interface LlmContext {
  /** The visitor's question, as typed. */
  question: string;
  /** Fragments that passed the knowledge base's score threshold, best first. */
  fragments: LlmFragment[];
  /** Whether the bot has a trained knowledge base at all. */
  hasKnowledge: boolean;
  /** Answer when the knowledge base has nothing relevant. Default: 'No tengo información para responder a eso.' */
  fallback?: string;
  /** Answer when the bot has no knowledge base. Default: 'No puedo ayudarte con eso.' */
  offTopicAnswer?: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Aborts the upstream call; the provider then rejects with LlmError code 'aborted'. */
  signal?: AbortSignal;
  context?: LlmContext;
}

export interface LlmResult {
  text: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** Registry name of the provider that answered ('openai-compatible' | 'offline'), for traces. */
  provider: string;
  model: string;
  /**
   * Indexes into `request.context.fragments` of the fragments the answer is drawn from, when the
   * provider knows (the offline provider quotes one; [] when it answered with the fallback). The
   * chat cites exactly these; absent (a model's paraphrase), it cites what it gave the model.
   */
  usedFragments?: number[];
}

/** A stream is zero or more deltas followed by exactly one 'done' carrying the totals. */
export type LlmStreamEvent = { type: 'delta'; text: string } | { type: 'done'; result: LlmResult };

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmResult>;
  /** Rejects (throws from the iterator) with an LlmError on upstream failure, even mid-stream. */
  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent>;
}
