import type { FeatureDependencies, ServerFeature } from '../http/server-features.ts';
import { registerAnalyticsRoutes } from './analytics/analytics-routes.ts';
import { ChatLlm } from './chat-llm.ts';
import { registerChatRoutes } from './chat-routes.ts';
import { ChatService } from './chat-service.ts';
import { ChatStore } from './chat-store.ts';
import { registerContactMergeRoute } from './contact-merge-routes.ts';
import { chatRetrievalIndex } from './chat-retrieval-index.ts';
import { registerChatVisitors } from './register-chat-visitors.ts';
import { createChatVisitorOperations } from './chat-visitor-operations.ts';
import { registerVerificationRoutes } from './chat-visitor-routes.ts';
import { ChatPreview } from './chat-preview.ts';
import { createChatConsoleOperations } from './chat-console-operations.ts';
import { registerChatPreviewRoute } from './chat-preview-routes.ts';

/** The public chat: /api/chat/* (see chat-routes.ts), the services behind it, and the console's bot analytics. */
export const registerChatFeature: ServerFeature = async (app, deps: FeatureDependencies) => {
  const limits = deps.featureConfig.chat;
  const store = new ChatStore(deps.database, deps.service);
  const llm = new ChatLlm(deps.effectiveConfig);
  // Origins, frame policy, e-mail codes, resume tokens and /widget.js, before the routes they cover.
  const { tokens, verification } = await registerChatVisitors(app, deps, store);
  const index = chatRetrievalIndex(deps.database, deps.effectiveConfig);
  const service = new ChatService(store, llm, index, tokens);
  // Several instances (PostgreSQL or Redis): one lock and one message budget per conversation across all of them.
  const visitors = createChatVisitorOperations({ chat: service, verification, limits, coordination: deps.coordination.shared, defineOperation: deps.defineOperation });
  registerChatRoutes(app, visitors, limits, deps.coordination.shared);
  registerVerificationRoutes(app, visitors, limits);
  // The console's side: analytics, the bot form's preview (the same pipeline over an in-memory
  // conversation, issue 28 item 4) and the merge of unverified contacts (issue 20), each an
  // operation that checks its own caller.
  const preview = new ChatPreview({ database: deps.database, service: deps.service, store, llm, index, tokens });
  const operations = createChatConsoleOperations({ ...deps, preview, limits });
  registerAnalyticsRoutes(app, operations.analytics);
  registerChatPreviewRoute(app, operations.preview, limits);
  registerContactMergeRoute(app, deps.entities.contact, operations.mergeContact);
};
