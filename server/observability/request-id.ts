import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a client's (or a proxy's) X-Request-Id may be to be kept: printable, no spaces, quotes or
 * control characters (it goes into log lines and a response header), at most 128 characters (a
 * UUID, a W3C trace id or a load balancer's id all fit). Anything else is replaced, never echoed.
 */
const ACCEPTED_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** Fastify's genReqId: the caller's id when it is acceptable, else a random UUID (unique across instances). */
export function requestIdOf(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && ACCEPTED_ID.test(sent) ? sent : randomUUID();
}

/**
 * Every response carries X-Request-Id; every error body (status >= 400 with the error shape)
 * carries `requestId`, so a client reporting a failure can quote the id its log line has.
 */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || payload === null || typeof payload !== 'object' || !('message' in payload) || 'requestId' in payload) return done(null, payload);
    done(null, { ...payload, requestId: request.id });
  });
}
