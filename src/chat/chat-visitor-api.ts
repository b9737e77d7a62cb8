import { RestTransport } from '../../runtime/transport/rest-transport.ts';
import type { ChatConversation } from './chat-types.ts';
import { embedContext } from './embed-context.ts';

/** fetch that names the embedding page to the server (x-forja-embedder), which checks it against the bot's allowed origins. */
export const embedderFetch: typeof fetch = (input, init) => {
  if (!embedContext.parentOrigin) return fetch(input, init);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set('x-forja-embedder', embedContext.parentOrigin);
  return input instanceof Request ? fetch(new Request(input, { headers }), init && { ...init, headers }) : fetch(input, { ...init, headers });
};

/** Tells the widget on the host page something (its theme, a close), only if it is the embedding page. */
export function tellWidget(
  message: { type: 'forja:ready'; title: string; color: string; position: string } | { type: 'forja:close' } | { type: 'forja:token'; token: string },
): void {
  if (embedContext.embedded && embedContext.parentOrigin && window.parent !== window) window.parent.postMessage(message, embedContext.parentOrigin);
}

const http = new RestTransport({ getToken: () => null, fetch: embedderFetch });
const id = (value: string) => encodeURIComponent(value);

export const chatVisitorApi = {
  resume: (botId: string, token: string) => http.call<ChatConversation>({ method: 'POST', path: '/api/chat/resume', json: { botId, token } }),
  requestCode: (conversationId: string) => http.call<{ sent: true; expiresInSeconds: number }>({ method: 'POST', path: `/api/chat/verify/${id(conversationId)}/code`, json: {} }),
  verify: (conversationId: string, code: string) => http.call<ChatConversation>({ method: 'POST', path: `/api/chat/verify/${id(conversationId)}`, json: { code } }),
};

/**
 * The browser's resume token per bot, in localStorage. Inside the widget it is also kept by the
 * host page (widget.js, first-party there): browsers blocking third-party storage would otherwise
 * forget it; the widget passes it back as ?resume=.
 */
export const resumeTokens = {
  key: (botId: string) => `forja.chat.${botId}`,
  get(botId: string): string | null {
    const fromWidget = embedContext.embedded ? new URLSearchParams(window.location.search).get('resume') : null;
    try {
      return window.localStorage.getItem(this.key(botId)) ?? fromWidget;
    } catch {
      return fromWidget;
    }
  },
  set(botId: string, token: string | undefined): void {
    if (!token) return;
    tellWidget({ type: 'forja:token', token });
    try {
      window.localStorage.setItem(this.key(botId), token);
    } catch {
      // Storage blocked (private mode, third-party iframe): the visitor simply starts anew next time.
    }
  },
  clear(botId: string): void {
    tellWidget({ type: 'forja:token', token: '' });
    try {
      window.localStorage.removeItem(this.key(botId));
    } catch {
      // as above
    }
  },
};
