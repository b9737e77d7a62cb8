import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../../http/request-context.ts';

/** Who runs an operation: their context (user, tenant, permissions) and, over HTTP, the request. */
export interface OperationCaller {
  context: RequestContext;
  request?: FastifyRequest;
}
