import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../observability/request-id.ts';
import { HttpError } from './http-error.ts';

/** Statuses a client error may keep; anything else 4xx from a plugin is reported as 400. */
const CLIENT_STATUSES = new Set([400, 401, 403, 404, 405, 406, 409, 411, 413, 414, 415, 416, 422, 429, 431]);

/**
 * Maps every error to `{ message, i18nMessage?, inputErrors? }`. Known client errors (ours and
 * Fastify's: bad JSON, wrong content type, too large, rate limited) keep their status and a
 * message saying what was wrong; anything else is a 500 whose real cause goes only to the log.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send(error.toBody());
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = (error as FastifyError).code;
      // Debug only: the request's own line (observability/request-log-controller.ts) has its status already.
      request.log.debug({ code, message: error.message }, 'client error');
      if ((error as FastifyError).validation) {
        // Fastify route-schema validation (query strings): name the parameter at fault.
        const inputErrors = (error as FastifyError).validation!.map((v) => ({
          field: String(v.instancePath.replace(/^\//, '') || (v.params as { missingProperty?: string }).missingProperty || ''),
          reason: 'validation.invalidValue',
        }));
        return reply.status(400).send({ message: error.message, i18nMessage: 'error.validation', inputErrors });
      }
      return reply.status(CLIENT_STATUSES.has(status) ? status : 400).send({ message: clientMessage(error as FastifyError, request.routeOptions.bodyLimit) });
    }
    request.log.error({ err: error }, 'unexpected error');
    const storage = storageFailure(error);
    if (storage) return reply.status(storage.status).send({ message: storage.message, i18nMessage: 'error.server' });
    return reply.status(500).send({ message: 'Internal server error', i18nMessage: 'error.server' });
  });
}

/**
 * Fastify's `frameworkErrors`: what it refuses before routing (a path that is not valid
 * percent-encoded UTF-8, such as /api/bots/%FF%FE) answers without hooks or the error handler,
 * so this gives it the error shape and the request id itself (tests/api/observability.test.ts).
 */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && CLIENT_STATUSES.has(error.statusCode) ? error.statusCode : 400;
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? `${error.message}: the address must be percent-encoded UTF-8 (for example %C3%A9 for é)`
      : error.message;
  void reply.status(status).header(REQUEST_ID_HEADER, request.id).send({ message, i18nMessage: 'error.client', requestId: request.id });
}

/** What Node's HTTP parser refuses before there is a request (Fastify's clientErrorHandler). */
const PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers (the address included) are larger than 16 KB: send a shorter address or fewer headers' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};

/**
 * Fastify's `clientErrorHandler`: Node refused the bytes before a request existed (headers over
 * 16 KB, a malformed request line). Fastify's default answers a body without our error shape or
 * a request id; this one gives both, the id made here as no request carries one.
 */
export function clientErrorReply(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = PARSER_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request could not be read as HTTP' };
  const requestId = randomUUID();
  const body = JSON.stringify({ message, i18nMessage: 'error.client', requestId });
  this.log.debug({ code: error.code, requestId }, 'client error before a request');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's own messages are clear; a few get a friendlier, more specific text. */
function clientMessage(error: FastifyError, bodyLimit: number | undefined): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `Malformed JSON body: ${error.message}`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported content type: ${error.message}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyLimit ? `Request body is too large: this route takes at most ${bodyLimit} bytes` : 'Request body is too large';
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'Request body is too large';
    default:
      return error.message;
  }
}

// 53100: PostgreSQL's disk_full.
const DISK_FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);
const READ_ONLY = new Set(['SQLITE_READONLY', 'EROFS', 'EACCES']);

/**
 * A full disk or a read-only data directory is the operator's to fix, not a bug: the client is
 * told plainly that nothing was saved (507 / 503) instead of a bare 500 (tests/fuzz/faults.test.ts).
 */
function storageFailure(error: Error): { status: number; message: string } | null {
  const code = String((error as NodeJS.ErrnoException).code ?? '');
  const base = code.split('_').slice(0, 2).join('_');
  if (DISK_FULL.has(code) || DISK_FULL.has(base)) return { status: 507, message: 'The server has no storage space left; the change was not saved' };
  if (READ_ONLY.has(code) || READ_ONLY.has(base)) return { status: 503, message: 'The server cannot write to its data directory; the change was not saved' };
  return null;
}
