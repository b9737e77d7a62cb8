import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../http/http-error.ts';
import type { ChatLimits } from './chat-limits.ts';
import type { ChatStore } from './chat-store.ts';
import type { ChatVisitorOperations } from './chat-visitor-operations.ts';
import { callerOf } from '../operations/operation-caller.ts';
import { checkChatOrigin } from './origin-policy.ts';
import { chatFramePolicy } from './chat-frame-policy.ts';
import { WIDGET_SCRIPT } from './widget/widget-script.ts';

type ConversationParams = { Params: { conversationId: string } };

const MINUTE = 60_000;
/** The header the chat page sends when it runs inside the widget's iframe: the embedding page's origin. */
export const EMBEDDER_HEADER = 'x-forja-embedder';

/**
 * Where each public chat route finds the bot whose allowed origins apply: an explicit list, so a
 * new chat route without an entry is refused loudly at start rather than left unchecked.
 */
const BOT_OF_ROUTE: Record<string, 'body' | 'conversation' | 'param'> = {
  '/api/chat/start': 'body',
  '/api/chat/resume': 'body',
  '/api/chat/conversation/:id': 'conversation',
  // The chat page asks for its bot first: inside a refused site's iframe it learns so at once.
  '/api/chat/bot/:id': 'param',
  '/api/chat/message/:conversationId': 'conversation',
  '/api/chat/message/:conversationId/stream': 'conversation',
  '/api/chat/reaction/:conversationId': 'conversation',
  '/api/chat/verify/:conversationId/code': 'conversation',
  '/api/chat/verify/:conversationId': 'conversation',
};

/**
 * The visitor-facing additions of issue 20: allowed origins on every chat route, frame-ancestors
 * of the chat pages, e-mail verification, resuming a conversation, and /widget.js.
 */
export function registerChatVisitorRoutes(app: FastifyInstance, deps: { store: ChatStore }): void {
  const { store } = deps;

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    // Analytics and the preview are the console's (signed in, permission checked), not a visitor's.
    if (url.startsWith('/api/chat/') && !url.startsWith('/api/chat/analytics') && !url.startsWith('/api/chat/preview/') && !(url in BOT_OF_ROUTE)) {
      throw new Error(`Chat route ${url} has no entry in BOT_OF_ROUTE (server/chat/chat-visitor-routes.ts): say where its bot comes from so its allowed origins apply`);
    }
  });

  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    const where = url ? BOT_OF_ROUTE[url] : undefined;
    if (!where) return;
    const botId = where === 'body' ? bodyBotId(request) : where === 'param' ? (request.params as { id?: string }).id ?? null : await conversationBotId(store, request);
    // An unknown bot or conversation is the route's own 404.
    const bot = botId ? await store.bot(botId).catch(() => null) : null;
    if (!bot) return;
    checkChatOrigin({
      allowedOrigins: bot.allowedOrigins,
      origin: request.headers.origin,
      selfOrigin: `${request.protocol}://${request.host}`,
      embedder: headerValue(request.headers[EMBEDDER_HEADER]),
    });
  });

  chatFramePolicy(app, store);

  // Loaded by other sites' pages: cross-origin readable, cached briefly so a fix reaches them soon.
  app.get('/widget.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(WIDGET_SCRIPT),
  );
}

/** POST /api/chat/resume, /api/chat/verify/:conversationId/code and /api/chat/verify/:conversationId: REST adapters of the e-mail verification. */
export function registerVerificationRoutes(app: FastifyInstance, chat: ChatVisitorOperations, limits: ChatLimits): void {
  const perIp = (max: number) => ({ rateLimit: { max, timeWindow: MINUTE } });
  app.post('/api/chat/resume', { config: { operation: chat.resume, ...perIp(limits.readPerMinute) } }, async (request) => chat.resume(callerOf(request), request.body));
  app.post<ConversationParams>('/api/chat/verify/:conversationId/code', { config: { operation: chat.requestCode, ...perIp(limits.startPerMinute) } }, async (request) =>
    chat.requestCode(callerOf(request), { conversationId: request.params.conversationId }),
  );
  app.post<ConversationParams>('/api/chat/verify/:conversationId', { config: { operation: chat.verify, ...perIp(limits.messagePerMinute) } }, async (request) =>
    chat.verify(callerOf(request), { conversationId: request.params.conversationId, body: request.body }),
  );
}

function bodyBotId(request: FastifyRequest): string | null {
  const body = request.body as { botId?: unknown } | null | undefined;
  return typeof body?.botId === 'string' ? body.botId.trim() : null;
}

async function conversationBotId(store: ChatStore, request: FastifyRequest): Promise<string | null> {
  const params = request.params as { conversationId?: string; id?: string };
  const id = params.conversationId ?? params.id;
  if (!id) throw notFound('Conversation not found');
  const conversation = await store.conversation(id).catch(() => null);
  return conversation?.botId ?? null;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
