import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { EntityService } from '../../entities/entity-service.ts';
import { chatAnalytics, parseAnalyticsQuery } from './chat-analytics.ts';

/** GET /api/chat/analytics?bot=&from=&to= for the console's bot analytics (bottrace:view or :manage). */
export function registerAnalyticsRoutes(app: FastifyInstance, database: Database, service: EntityService): void {
  const permission = { entity: 'bottrace', action: 'view' as const, permission: 'bottrace:view', alternatives: ['bottrace:manage'] };
  app.get('/api/chat/analytics', { config: { permission } }, async (request) =>
    chatAnalytics(database, service, parseAnalyticsQuery(request.query as Record<string, unknown>), request.context.tenantId),
  );
}
