import type { FastifyInstance } from 'fastify';
import type { ChatStore } from './chat-store.ts';
import { normaliseOrigin } from './origin-policy.ts';

/** /chat/:botId and /chat/:botId/:conversationId; not /chat/qr/:botId (the console's QR page). */
const CHAT_PAGE = /^\/chat\/(?!qr(?:\/|$))([^/?#]+)(?:\/[^/?#]+)?\/?(?:\?.*)?$/;

/**
 * The chat pages may be framed by the bot's allowed origins (any site when the list is empty):
 * the page's Content-Security-Policy gets its own frame-ancestors, and X-Frame-Options, which
 * cannot name other origins, is dropped. Every other page keeps frame-ancestors 'self'.
 */
export function chatFramePolicy(app: FastifyInstance, store: ChatStore): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    const match = CHAT_PAGE.exec(request.url);
    if (!match) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const csp = reply.getHeader('content-security-policy');
    if (!type.startsWith('text/html') || typeof csp !== 'string') return payload;
    const bot = await store.bot(decodeURIComponent(match[1])).catch(() => null);
    if (!bot) return payload;
    const origins = bot.allowedOrigins.map(normaliseOrigin).filter((o): o is string => o !== null);
    const ancestors = origins.length === 0 ? "'self' https: http:" : ["'self'", ...origins].join(' ');
    reply.header('content-security-policy', withDirective(csp, 'frame-ancestors', ancestors));
    reply.removeHeader('x-frame-options');
    return payload;
  });
}

function withDirective(policy: string, name: string, value: string): string {
  const kept = policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && !d.toLowerCase().startsWith(`${name} `));
  return [...kept, `${name} ${value}`].join(';');
}
