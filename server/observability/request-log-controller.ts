import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { httpRequestDuration, rateLimitRefusals } from './metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No log line for this route's requests (probes, /metrics): they would drown the others. */
    quietLog?: boolean;
  }
}

/** The label of requests that matched no route (404s, and the console's single-page fallback). */
const NO_ROUTE = '(no route)';
/** @fastify/static's route for the console's files (server/http/serve-console.ts). */
const STATIC_ROUTE = '/*';

/**
 * Fastify's own request logging wrote two lines per request (incoming, completed), assets and
 * probes included. This writes one, when the response is done, with the route pattern, status,
 * time, request id (`requestId`, bound to every line the request logs) and user; none for static files, probes and the console's
 * page. The same spot observes the request histogram: the one per-request cost of the metrics.
 */
export class RequestLogController extends LogController {
  constructor(private readonly metricsEnabled: boolean) {
    super({ disableRequestLogging: true, requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? NO_ROUTE;
    const status = reply.statusCode;
    if (this.metricsEnabled) {
      httpRequestDuration.observe({ route, method: request.method, status }, reply.elapsedTime / 1000);
      if (status === 429) rateLimitRefusals.inc({ route });
    }
    if (error) {
      reply.log.error({ err: error, method: request.method, route, status, ms: Math.round(reply.elapsedTime) }, 'request errored');
      return;
    }
    if (request.routeOptions.config?.quietLog || route === STATIC_ROUTE || (route === NO_ROUTE && status < 400)) return;
    request.log.info(
      { method: request.method, route, url: route === NO_ROUTE ? request.url.slice(0, 200) : undefined, status, ms: Math.round(reply.elapsedTime), userId: request.context?.userId ?? null },
      'request',
    );
  }
}
