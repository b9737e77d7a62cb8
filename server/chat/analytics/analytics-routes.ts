import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../operations/operation-caller.ts';
import type { ChatConsoleOperations } from '../chat-console-operations.ts';

/** GET /api/chat/analytics?bot=&from=&to=: the REST adapter of the bot analytics (chat-console-operations.ts). */
export function registerAnalyticsRoutes(app: FastifyInstance, analytics: ChatConsoleOperations['analytics']): void {
  app.get('/api/chat/analytics', { config: { operation: analytics } }, async (request) => analytics(callerOf(request), request.query as Record<string, unknown>));
}
