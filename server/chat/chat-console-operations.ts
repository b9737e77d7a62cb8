import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';
import type { ChatAnalytics } from '../../contract/analytics/chat-analytics.ts';
import type { PreviewAnswer } from '../../contract/chat/preview-answer.ts';
import { chatAnalytics, parseAnalyticsQuery } from './analytics/chat-analytics.ts';
import type { ChatLimits } from './chat-limits.ts';
import type { ChatPreview } from './chat-preview.ts';
import { parsePreviewInput } from './chat-preview-validation.ts';
import { contactMergeOperation, type ContactMergeInput, type ContactMergeResult } from './contact-merge.ts';

/**
 * Editing a bot's permission, not reading it: the preview spends the model's tokens and runs the
 * form's unsaved prompts, which is part of editing the bot. A bot:view reader gets 403.
 */
export const PREVIEW_PERMISSION: RoutePermission = { entity: 'bot', action: 'update', permission: 'bot:update', alternatives: ['bot:manage'] };
const ANALYTICS_PERMISSION: RoutePermission = { entity: 'bottrace', action: 'view', permission: 'bottrace:view', alternatives: ['bottrace:manage'] };

export interface PreviewOperationInput {
  botId: string;
  /** `{ message, history?, draft? }` as sent (chat-preview-validation.ts reads it). */
  body: unknown;
  /** Ends the model call early (the server's shutdown). */
  signal?: AbortSignal;
}

/** The console's chat operations (the visitors' chat is public: chat-routes.ts, chat-visitor-routes.ts). */
export interface ChatConsoleOperations {
  /** The bot form's preview chat (chat-preview.ts): bot:update. */
  preview: Operation<PreviewOperationInput, PreviewAnswer>;
  /** A bot's analytics, `{ bot, from, to }` as query strings: bottrace:view, within the caller's tenant. */
  analytics: Operation<Record<string, unknown>, ChatAnalytics>;
  /** Merges an unverified contact into another (contact-merge.ts): contact update and delete. */
  mergeContact: Operation<ContactMergeInput, ContactMergeResult>;
}

export function createChatConsoleOperations(deps: {
  database: Database;
  service: EntityService;
  entities: EntityModelMap;
  defineOperation: DefineOperation;
  preview: ChatPreview;
  limits: ChatLimits;
}): ChatConsoleOperations {
  const { database, service, defineOperation: define, preview, limits } = deps;
  return {
    preview: define<PreviewOperationInput, PreviewAnswer>([PREVIEW_PERMISSION], async (caller, input) =>
      preview.run(input.botId, caller.context, parsePreviewInput(input.body, limits.maxMessageChars), input.signal),
    ),
    analytics: define<Record<string, unknown>, ChatAnalytics>([ANALYTICS_PERMISSION], async (caller, query) =>
      chatAnalytics(database, service, parseAnalyticsQuery(query ?? {}), caller.context.tenantId),
    ),
    mergeContact: contactMergeOperation(deps),
  };
}
