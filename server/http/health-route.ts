import type { FastifyInstance } from 'fastify';

/**
 * Liveness: the process answers (nothing else is checked, so a database outage does not get the
 * instance restarted). Readiness, with the dependencies, is GET /api/health/ready
 * (server/observability/readiness-route.ts).
 */
export function registerHealthRoute(app: FastifyInstance): void {
  app.get('/api/health', { config: { quietLog: true } }, async () => ({ status: 'ok' }));
}
