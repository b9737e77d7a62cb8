import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import type { MetricsConfig } from './metrics-config.ts';
import { collectProcessMetrics, registry } from './metrics.ts';

/**
 * GET /metrics in the Prometheus text format, only with METRICS_ENABLED=true (else the path is a
 * 404 like any unknown one), behind `Authorization: Bearer <METRICS_TOKEN>` when that is set. A
 * scrape reads counters kept in memory plus two indexed job counts: its cost does not grow with
 * the data.
 */
export function registerMetricsRoute(app: FastifyInstance, config: MetricsConfig): void {
  if (!config.enabled) return;
  collectProcessMetrics();
  const expected = config.token ? Buffer.from(`Bearer ${config.token}`) : null;
  app.get('/metrics', { config: { quietLog: true } }, async (request, reply) => {
    if (expected) {
      const sent = Buffer.from(request.headers.authorization ?? '');
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new HttpError(401, 'GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>', { i18nMessage: 'error.authRequired' });
      }
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}
