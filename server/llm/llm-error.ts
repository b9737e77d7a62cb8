/**
 * The one error type the LLM layer throws. `message` is plain English meant for an administrator
 * (it never contains the API key); `status` is what the HTTP layer should answer with.
 */
export type LlmErrorCode =
  | 'unreachable'
  | 'timeout'
  | 'auth'
  | 'model'
  | 'rate_limited'
  | 'upstream'
  | 'invalid_response'
  | 'aborted';

/**
 * Upstream trouble is a gateway problem for our caller, never their own 401/404: answering 401 would
 * sign the console user out, and 404 would read as "conversation not found".
 * 'aborted' uses 499 (client closed request): the caller cancelled, usually nobody is listening.
 */
export const LLM_ERROR_STATUS: Record<LlmErrorCode, number> = {
  unreachable: 503,
  timeout: 504,
  auth: 502,
  model: 502,
  rate_limited: 503,
  upstream: 502,
  invalid_response: 502,
  aborted: 499,
};

export class LlmError extends Error {
  readonly code: LlmErrorCode;
  readonly status: number;
  /** Seconds the upstream asked us to wait (rate limits), when it said so. */
  readonly retryAfterSeconds?: number;

  constructor(code: LlmErrorCode, message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, { cause: options.cause });
    this.name = 'LlmError';
    this.code = code;
    this.status = LLM_ERROR_STATUS[code];
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
