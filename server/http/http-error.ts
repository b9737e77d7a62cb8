/** One entry of `inputErrors`: the field path (parent.index.field) and the message key. */
export interface InputError {
  field: string;
  reason: string;
}

/** The one error shape every endpoint answers with (docs/product-rules.md#errors). */
export interface ErrorBody {
  message: string;
  i18nMessage?: string;
  inputErrors?: InputError[];
  /** Added to every error response on its way out (server/observability/request-id.ts). */
  requestId?: string;
}

/**
 * An error meant for the client: its status and body are sent as they are. Anything else thrown
 * is unexpected and becomes a generic 500 (see error-handler.ts).
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly i18nMessage: string | undefined;
  readonly inputErrors: InputError[] | undefined;
  /** Extra members sent beside the shape (an import's report), never replacing its fields. */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    statusCode: number,
    message: string,
    options: { i18nMessage?: string; inputErrors?: InputError[]; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.i18nMessage = options.i18nMessage;
    this.inputErrors = options.inputErrors;
    this.details = options.details;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ...this.details, message: this.message };
    if (this.i18nMessage) body.i18nMessage = this.i18nMessage;
    if (this.inputErrors) body.inputErrors = this.inputErrors;
    return body;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);

/** 400 with per-field errors; `error.validation` is the locale key the console shows for it. */
export function validationError(inputErrors: InputError[], message = 'Validation failed', status = 400): HttpError {
  return new HttpError(status, message, { i18nMessage: 'error.validation', inputErrors });
}
