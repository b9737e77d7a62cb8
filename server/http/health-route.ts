import type { FastifyInstance } from 'fastify';

/** Liveness/readiness: registered after the database is migrated, so a 200 means ready. */
export function registerHealthRoute(app: FastifyInstance): void {
  app.get('/api/health', async () => ({ status: 'ok' }));
}
