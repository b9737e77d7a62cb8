import type { Citation } from './conversation-view.ts';

/**
 * The answer of POST /api/chat/preview/:botId (the bot form's preview panel): what a visitor would
 * get, plus what the administrator needs to see why. Written by server/chat/chat-preview.ts, read
 * by src/chat/preview.
 */
export interface PreviewAnswer {
  /** ok: answered; no_answer: the bot's fallback; error: the language model failed (see `error`). */
  status: 'ok' | 'no_answer' | 'error';
  /** The text the visitor would read. */
  answer: string;
  citations: Citation[];
  error: { code: string; message: string } | null;
  /** Every fragment the search returned, best first; `used` marks those the prompt carried. */
  fragments: PreviewFragment[];
  /** The messages sent to the model; null when the model was not asked (nothing relevant found). */
  prompt: { role: 'system' | 'user' | 'assistant'; content: string }[] | null;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  tokens: number;
  /** Retrieval, prompt and model, as a visitor would wait. */
  latencyMs: number;
}

export interface PreviewFragment {
  source: string;
  hash: string;
  content: string;
  /** 0..1, see server/rag/README.md. */
  score: number;
  used: boolean;
}

/** One earlier turn the administrator sends back so the preview follows the conversation. */
export interface PreviewTurn {
  role: 'user' | 'assistant';
  message: string;
}

const text = { type: 'string' } as const;
const count = { type: 'integer', minimum: 0 } as const;

/** PreviewAnswer as JSON Schema: the OpenAPI document's 200 of the preview, so API tests check every answer. */
export const PREVIEW_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'answer', 'citations', 'error', 'fragments', 'prompt', 'provider', 'model', 'inputTokens', 'outputTokens', 'tokens', 'latencyMs'],
  properties: {
    status: { type: 'string', enum: ['ok', 'no_answer', 'error'] },
    answer: text,
    citations: {
      type: 'array',
      items: { type: 'object', required: ['source', 'fragmentId', 'excerpt'], properties: { source: text, fragmentId: text, excerpt: text } },
    },
    error: { anyOf: [{ type: 'null' }, { type: 'object', required: ['code', 'message'], properties: { code: text, message: text } }] },
    fragments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['source', 'hash', 'content', 'score', 'used'],
        properties: { source: text, hash: text, content: text, score: { type: 'number' }, used: { type: 'boolean' } },
      },
    },
    prompt: {
      anyOf: [
        { type: 'null' },
        { type: 'array', items: { type: 'object', required: ['role', 'content'], properties: { role: { type: 'string', enum: ['system', 'user', 'assistant'] }, content: text } } },
      ],
    },
    provider: text,
    model: text,
    inputTokens: count,
    outputTokens: count,
    tokens: count,
    latencyMs: count,
  },
} as const;
