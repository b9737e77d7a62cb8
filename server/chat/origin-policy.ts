import { HttpError } from '../http/http-error.ts';

/**
 * Which browser origins may use a bot's chat (bot.allowedOrigins; empty: any).
 *
 * - A request without Origin comes from a non-browser client (curl, a server, a test): allowed.
 *   Such a client can send any Origin it likes, so the list is a rule for browsers (which always
 *   send it on POST and cannot lie about it), not authentication.
 * - Forja's own origin is allowed: that is the chat page, opened directly or inside the widget's
 *   iframe; where that page may be framed is decided by frame-ancestors (chat-frame-policy.ts).
 * - The widget's iframe names the page embedding it in `embedder` (x-forja-embedder); a listed
 *   origin list refuses an embedder not on it, as a second check behind frame-ancestors.
 */
export function checkChatOrigin(input: { allowedOrigins: readonly string[]; origin: string | undefined; selfOrigin: string; embedder: string | undefined }): void {
  const allowed = input.allowedOrigins.map(normaliseOrigin).filter((o): o is string => o !== null);
  if (allowed.length === 0) return;
  const origin = input.origin ? normaliseOrigin(input.origin) : null;
  if (input.origin && origin !== normaliseOrigin(input.selfOrigin) && (origin === null || !allowed.includes(origin))) {
    throw refused(input.origin);
  }
  if (input.embedder) {
    const embedder = normaliseOrigin(input.embedder);
    if (embedder !== normaliseOrigin(input.selfOrigin) && (embedder === null || !allowed.includes(embedder))) throw refused(input.embedder);
  }
}

function refused(origin: string): HttpError {
  return new HttpError(403, `This bot's chat is not allowed on ${origin.slice(0, 200)}; an administrator can add that origin to the bot's allowed origins`, {
    i18nMessage: 'chat.error.originNotAllowed',
  });
}

/** scheme://host[:port] in lower case without a default port; null for anything else ("null", paths). */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}
