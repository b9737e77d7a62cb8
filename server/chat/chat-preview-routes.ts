import type { FastifyInstance } from 'fastify';
import type { RoutePermission } from '../http/authorizer.ts';
import type { ChatLimits } from './chat-limits.ts';
import type { ChatPreview } from './chat-preview.ts';
import { parsePreviewInput, previewBodyLimit } from './chat-preview-validation.ts';

/**
 * Editing a bot's permission, not reading it: the preview spends the model's tokens and runs the
 * form's unsaved prompts, which is part of editing the bot. A bot:view reader gets 403.
 */
export const PREVIEW_PERMISSION: RoutePermission = { entity: 'bot', action: 'update', permission: 'bot:update', alternatives: ['bot:manage'] };

const MINUTE = 60_000;

/** POST /api/chat/preview/:botId: the bot form's preview chat (chat-preview.ts). */
export function registerChatPreviewRoute(app: FastifyInstance, preview: ChatPreview, limits: ChatLimits): void {
  app.post<{ Params: { botId: string } }>(
    '/api/chat/preview/:botId',
    {
      // The visitors' message budget per IP: a preview costs what a message costs.
      config: { permission: PREVIEW_PERMISSION, rateLimit: { max: limits.messagePerMinute, timeWindow: MINUTE } },
      bodyLimit: previewBodyLimit(limits.maxMessageChars),
      schema: {
        summary: "Preview a bot's answer (no contact, conversation or trace is written)",
        description: 'Runs the visitor chat pipeline for `message` and answers the text with the retrieved fragments and their scores, the prompt sent, tokens and latency. `draft` tries the bot form\'s unsaved prompt fields.',
        tags: ['chat'],
      },
    },
    async (request) => preview.run(request.params.botId, request.context, parsePreviewInput(request.body, limits.maxMessageChars), request.server.shutdownSignal),
  );
}
