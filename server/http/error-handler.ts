import type { FastifyError, FastifyInstance } from 'fastify';
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
