import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import { LlmError } from './llm-error.ts';

export interface UpstreamDescription {
  /** Already safe to show: see describeEndpoint. */
  endpoint: string;
  model: string;
  timeoutMs: number;
  /** Only used to scrub it from anything the upstream echoes back. */
  apiKey?: string | null;
}

const MAX_DETAIL_CHARS = 300;

/** Maps anything the openai SDK (or a broken server) throws to an LlmError an admin can act on. */
export function toLlmError(error: unknown, upstream: UpstreamDescription): LlmError {
  if (error instanceof LlmError) return error;
  const at = `the language model server at ${upstream.endpoint}`;
  if (error instanceof APIUserAbortError) {
    return new LlmError('aborted', 'The request to the language model was cancelled.', { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    const seconds = Math.round(upstream.timeoutMs / 100) / 10;
    return new LlmError('timeout', `${capitalise(at)} did not answer within ${seconds} s.`, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const code = causeCode(error);
    if (code && /JSON|parse/i.test(String(code))) return invalidResponse(at, error);
    return new LlmError('unreachable', `${capitalise(at)} could not be reached${code ? ` (${code})` : ''}. Check the base URL and that the server is running.`, { cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = upstreamDetail(error, upstream.apiKey);
    if (status === 401 || status === 403) {
      // The upstream's own text is left out on purpose: OpenAI echoes part of the rejected key.
      return new LlmError('auth', `${capitalise(at)} rejected the API key (HTTP ${status}). Check the API key in Settings.`, { cause: error });
    }
    if (status === 404 || (status === 400 && /model/i.test(detail) && /not (be )?found|does not exist|unknown/i.test(detail))) {
      return new LlmError(
        'model',
        `The model "${upstream.model}" was not found at ${upstream.endpoint} (HTTP ${status})${detail ? `: ${detail}` : ''}. Check the model name and the base URL.`,
        { cause: error },
      );
    }
    if (status === 429) {
      const retryAfterSeconds = retryAfter(error.headers);
      return new LlmError(
        'rate_limited',
        `${capitalise(at)} is rate limiting requests (HTTP 429)${retryAfterSeconds !== undefined ? `; retry after ${retryAfterSeconds} s` : ''}.`,
        { cause: error, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
      );
    }
    return new LlmError('upstream', `${capitalise(at)} failed (HTTP ${status})${detail ? `: ${detail}` : ''}.`, { cause: error });
  }
  if (error instanceof SyntaxError) return invalidResponse(at, error);
  if (error instanceof APIError) {
    // Errors the SDK raises while reading a stream (bad SSE data, an error event) have no status.
    const detail = upstreamDetail(error, upstream.apiKey);
    if (/JSON|parse/i.test(detail)) return invalidResponse(at, error);
    return new LlmError('upstream', `${capitalise(at)} failed${detail ? `: ${detail}` : ''}.`, { cause: error });
  }
  const detail = error instanceof Error ? redact(error.message, upstream.apiKey) : '';
  if (/JSON|parse/i.test(detail)) return invalidResponse(at, error);
  return new LlmError('upstream', `Calling ${at} failed${detail ? `: ${truncate(detail)}` : ''}.`, { cause: error });
}

export function invalidResponse(at: string, cause?: unknown, what = 'a response that is not a valid chat completion'): LlmError {
  return new LlmError('invalid_response', `${capitalise(at)} sent ${what}. Check that the base URL points to an OpenAI-compatible API.`, { cause });
}

function upstreamDetail(error: APIError, apiKey: string | null | undefined): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw = typeof body?.message === 'string' ? body.message : error.message;
  return truncate(redact(raw ?? '', apiKey).replace(/\s+/g, ' ').trim());
}

function redact(text: string, apiKey: string | null | undefined): string {
  let safe = text;
  if (apiKey && apiKey.length >= 4) safe = safe.split(apiKey).join('[redacted]');
  return safe.replace(/\b(sk-[A-Za-z0-9_*-]{4,})/g, '[redacted]');
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

function causeCode(error: Error): string | undefined {
  // undici nests the socket error: APIConnectionError -> TypeError('fetch failed') -> Error{code}.
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const seconds = Number(headers?.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 && headers?.get('retry-after') ? seconds : undefined;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
