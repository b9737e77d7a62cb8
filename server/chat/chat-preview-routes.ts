import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { ChatConsoleOperations } from './chat-console-operations.ts';
import type { ChatLimits } from './chat-limits.ts';
import { previewBodyLimit } from './chat-preview-validation.ts';

const MINUTE = 60_000;

/** POST /api/chat/preview/:botId: the REST adapter of the bot form's preview (chat-console-operations.ts). */
export function registerChatPreviewRoute(app: FastifyInstance, preview: ChatConsoleOperations['preview'], limits: ChatLimits): void {
  app.post<{ Params: { botId: string } }>(
    '/api/chat/preview/:botId',
    {
      // The visitors' message budget per IP: a preview costs what a message costs.
      config: { operation: preview, rateLimit: { max: limits.messagePerMinute, timeWindow: MINUTE } },
      bodyLimit: previewBodyLimit(limits.maxMessageChars),
      schema: {
        summary: "Preview a bot's answer (no contact, conversation or trace is written)",
        description: 'Runs the visitor chat pipeline for `message` and answers the text with the retrieved fragments and their scores, the prompt sent, tokens and latency. `draft` tries the bot form\'s unsaved prompt fields.',
        tags: ['chat'],
      },
    },
    async (request) => preview(callerOf(request), { botId: request.params.botId, body: request.body, signal: request.server.shutdownSignal }),
  );
}
