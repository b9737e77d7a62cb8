import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ApiError } from '../../runtime/transport/api-error.ts';
import { RestTransport } from '../../runtime/transport/rest-transport.ts';
import { toApiError } from '../../runtime/transport/to-api-error.ts';
import type { Reaction } from '../generated/types.ts';
import type { ChatBot, ChatConversation } from './chat-types.ts';
import { embedderFetch } from './chat-visitor-api.ts';

/**
 * The public chat endpoints (docs/product-rules.md#calls Chat). Visitors have no account: this transport never sends a
 * token, even when an administrator is signed in in the same browser.
 */
const http = new RestTransport({ getToken: () => null, fetch: embedderFetch });
/** Long enough for a local model to think before its first word; the stream then keeps it alive. */
const MESSAGE_TIMEOUT_MS = 120_000;

const id = (value: string) => encodeURIComponent(value);

/** A failed answer that still changed the conversation (the server saved a polite reply). */
export class ChatAnswerFailed extends ApiError {
  constructor(
    message: string,
    status: number | null,
    readonly conversation: ChatConversation | null,
  ) {
    super(message, 'server', status, {});
  }
}

/** The locale key a visitor sees for a failed call (docs/product-rules.md#errors): the server's i18nMessage, else the generic one. */
export const UNEXPECTED_CHAT_ERROR = 'chat.error.unexpected';

/**
 * The server's i18nMessage of a failed chat call (a refused start, a rate limit, a bot that is
 * gone), when it sent one; otherwise chat.error.unexpected ('Ocurrió un error inesperado.'). The
 * server's English `message` is never shown to a visitor.
 */
export function chatFailureKey(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { i18nMessage?: unknown } | null;
    if (body && typeof body.i18nMessage === 'string' && body.i18nMessage.trim() !== '') return body.i18nMessage;
  }
  return UNEXPECTED_CHAT_ERROR;
}

export const chatApi = {
  bot: (botId: string) => http.call<ChatBot>({ method: 'GET', path: `/api/chat/bot/${id(botId)}` }),

  conversation: (conversationId: string) => http.call<ChatConversation>({ method: 'GET', path: `/api/chat/conversation/${id(conversationId)}` }),

  start: (input: { name: string; email: string; botId: string }) =>
    http.call<ChatConversation>({ method: 'POST', path: '/api/chat/start', json: input }),

  message: (conversationId: string, message: string) =>
    http.call<ChatConversation>({ method: 'POST', path: `/api/chat/message/${id(conversationId)}`, json: { message }, timeout: MESSAGE_TIMEOUT_MS }),

  reaction: (conversationId: string, chatId: string, reaction: Reaction | null) =>
    http.call<ChatConversation>({ method: 'POST', path: `/api/chat/reaction/${id(conversationId)}`, json: { conversationId, chatId, reaction } }),

  /**
   * POST /api/chat/message/:id/stream: calls `onDelta` with each piece of the answer and resolves
   * to the saved conversation. Rejects with ApiError (refused before streaming) or
   * ChatAnswerFailed (the model failed; carries the conversation the server saved).
   */
  async streamMessage(conversationId: string, message: string, onDelta: (text: string) => void, signal?: AbortSignal): Promise<ChatConversation> {
    let response: Response;
    try {
      response = await embedderFetch(`/api/chat/message/${id(conversationId)}/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ message }),
        signal: signal ?? AbortSignal.timeout(MESSAGE_TIMEOUT_MS),
      });
    } catch (error) {
      throw toApiError(error instanceof DOMException && error.name === 'AbortError' ? { kind: 'aborted' } : { kind: 'network' });
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      throw toApiError({ kind: 'http', status: response.status, body });
    }
    // Server-sent events parsed by eventsource-parser (the stream spec's line and field rules).
    const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const data = parseData(value.data);
      if (!data) continue;
      const name = value.event ?? 'message';
      if (name === 'delta') onDelta(String(data.text ?? ''));
      else if (name === 'done') return data.conversation as ChatConversation;
      else if (name === 'error') {
        throw new ChatAnswerFailed(
          String(data.i18nMessage ?? data.message ?? 'error.server'),
          typeof data.status === 'number' ? data.status : null,
          (data.conversation as ChatConversation | undefined) ?? null,
        );
      }
    }
    throw new ChatAnswerFailed('error.server', null, null);
  },
};

/** An event's JSON payload; null for anything else (a comment-only or malformed event is skipped). */
function parseData(text: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(text);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
