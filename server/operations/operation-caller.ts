import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../http/request-context.ts';

/**
 * Who runs an operation: their context (user, tenant, permissions) and, over HTTP, the request
 * (its address for attempt counters, its uploaded file) and the reply (rate-limit headers).
 * A feature acting on its own behalf passes `{ context: system() }`.
 */
export interface OperationCaller {
  context: RequestContext;
  request?: FastifyRequest;
  reply?: FastifyReply;
}

/** The caller of an HTTP request: what a REST route or a GraphQL resolver hands its operation. */
export function callerOf(request: FastifyRequest, reply?: FastifyReply): OperationCaller {
  return { context: request.context, request, reply };
}
