import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.ts';

export interface ForwardedCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
}

/**
 * Runs a REST route in-process on behalf of a GraphQL caller: same credentials, same address (so
 * IP allow-lists and rate limits see the real caller), same permission checks and validation.
 * Only for the sign-in, password and upload operations (identity-resolvers.ts), whose per-route
 * rate limits and multipart parsing live on their routes; entity reads and writes call the
 * entity service directly (entity-resolvers.ts).
 */
export async function forwardToRest(app: FastifyInstance, request: FastifyRequest, call: ForwardedCall): Promise<unknown> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'x-api-key', 'accept-language', 'user-agent']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const isForm = call.payload instanceof FormData;
  if (call.payload !== undefined && !isForm) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method: call.method,
    url: call.url,
    headers,
    remoteAddress: request.ip,
    payload: call.payload === undefined ? undefined : isForm ? (call.payload as FormData) : JSON.stringify(call.payload),
  });
  const text = response.body;
  const body = text ? safeJson(text) : null;
  if (response.statusCode >= 400) {
    const error = (body ?? {}) as { message?: string; i18nMessage?: string; inputErrors?: { field: string; reason: string }[] };
    throw new HttpError(response.statusCode, error.message ?? `Request failed with status ${response.statusCode}`, {
      i18nMessage: error.i18nMessage,
      inputErrors: error.inputErrors,
    });
  }
  return body;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
