import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import type { SharedLocksAndCounters } from '../db/coordination/coordination.ts';
import type { ChatLimits } from './chat-limits.ts';
import { conversationRateLimit } from './conversation-rate-limit.ts';
import { ChatAnswerError } from './chat-service.ts';
import type { ChatVisitorOperations, StreamedAnswer } from './chat-visitor-operations.ts';
import { callerOf } from '../operations/operation-caller.ts';

type IdParams = { Params: { id: string } };
type ConversationParams = { Params: { conversationId: string } };

const MINUTE = 60_000;

/**
 * The REST adapter of the visitors' chat (chat-visitor-operations.ts, docs/product-rules.md#calls
 * Chat): public, each rate limited per IP; messages also per conversation, so one visitor cannot
 * burn the model budget through many IPs on one conversation nor one IP through many
 * conversations. With `coordination` (several instances on PostgreSQL or Redis,
 * server/db/coordination) the conversation's message budget holds across instances.
 */
export function registerChatRoutes(app: FastifyInstance, chat: ChatVisitorOperations, limits: ChatLimits, coordination: SharedLocksAndCounters | null = null): void {
  const perIp = (max: number) => ({ rateLimit: { max, timeWindow: MINUTE } });
  // Shared by the plain and the streaming message routes: one budget per conversation.
  const perConversation = conversationRateLimit(limits.conversationPerMinute, MINUTE, Date.now, coordination);
  // A message larger than the limit is refused by its length (400), not by Fastify's body limit;
  // the body limit still stops anything absurd before it is parsed.
  const bodyLimit = Math.max(16 * 1024, limits.maxMessageChars * 8);

  app.post('/api/chat/start', { config: { operation: chat.start, ...perIp(limits.startPerMinute) }, bodyLimit }, async (request, reply) => {
    const conversation = await chat.start(callerOf(request), request.body);
    return reply.status(201).send(conversation);
  });

  app.get<IdParams>('/api/chat/conversation/:id', { config: { operation: chat.conversation, ...perIp(limits.readPerMinute) } }, async (request) =>
    chat.conversation(callerOf(request), { id: request.params.id }),
  );

  // Readable from any site: /widget.js asks it from the host page before it shows a launcher, and
  // learns from a 403 that the site is not in the bot's allowed origins (no credentials are sent).
  app.get<IdParams>(
    '/api/chat/bot/:id',
    { config: { operation: chat.publicBot, ...perIp(limits.readPerMinute) }, onRequest: async (_request, reply) => void reply.header('access-control-allow-origin', '*') },
    async (request) => chat.publicBot(callerOf(request), { id: request.params.id }),
  );

  app.post<ConversationParams>(
    '/api/chat/message/:conversationId',
    { config: { operation: chat.message, ...perIp(limits.messagePerMinute) }, preHandler: perConversation, bodyLimit },
    async (request) => {
      try {
        return await chat.message(callerOf(request), { conversationId: request.params.conversationId, body: request.body });
      } catch (error) {
        if (error instanceof ChatAnswerError) logFailure(request, error);
        throw error;
      }
    },
  );

  app.post<ConversationParams>(
    '/api/chat/message/:conversationId/stream',
    { config: { operation: chat.streamMessage, ...perIp(limits.messagePerMinute) }, preHandler: perConversation, bodyLimit },
    async (request, reply) => {
      const answer = await chat.streamMessage(callerOf(request), { conversationId: request.params.conversationId, body: request.body });
      await streamAnswer(request, reply, answer);
    },
  );

  app.post<ConversationParams>(
    '/api/chat/reaction/:conversationId',
    { config: { operation: chat.react, ...perIp(limits.messagePerMinute) }, bodyLimit },
    async (request) => chat.react(callerOf(request), { conversationId: request.params.conversationId, body: request.body }),
  );
}

function logFailure(request: FastifyRequest, error: ChatAnswerError): void {
  request.log.warn({ code: error.failure.code, message: error.failure.message }, 'chat answer failed');
}

/**
 * Server-sent events: `delta` events ({ text }) as the model writes, then one `done` event with the
 * saved conversation, or one `error` event ({ message, i18nMessage, conversation? }).
 */
async function streamAnswer(request: FastifyRequest, reply: FastifyReply, answer: StreamedAnswer) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Headers out now: the first delta may be held back a while (hold-until-answer.ts), and the
  // visitor's browser and any proxy should see the stream open at once.
  raw.flushHeaders();
  const send = (event: string, data: unknown) => {
    if (!raw.writableEnded && !raw.destroyed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const controller = new AbortController();
  raw.on('close', () => {
    if (!raw.writableFinished) controller.abort();
  });
  // A stopping server does not wait for the model: the answer ends now with an error event.
  const shutdown = request.server.shutdownSignal;
  const stop = () => controller.abort();
  if (shutdown.aborted) stop();
  else shutdown.addEventListener('abort', stop, { once: true });
  try {
    const conversation = await answer((text) => send('delta', { text }), controller.signal);
    send('done', { conversation });
  } catch (error) {
    if (error instanceof ChatAnswerError) {
      logFailure(request, error);
      send('error', { status: error.statusCode, message: error.message, i18nMessage: error.i18nMessage, conversation: error.conversation });
    } else if (error instanceof HttpError) {
      send('error', { status: error.statusCode, ...error.toBody() });
    } else {
      request.log.error({ err: error }, 'chat stream failed');
      send('error', { status: 500, message: 'Internal server error', i18nMessage: 'error.server' });
    }
  } finally {
    shutdown.removeEventListener('abort', stop);
    raw.end();
  }
}
