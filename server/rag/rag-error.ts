/**
 * Why a RAG operation refused its input. Each code has a stable i18n key (error.rag.<code>) and
 * the HTTP status the API should answer with; the message says in English what was wrong.
 */
export const RAG_ERROR_STATUS = {
  invalidInput: 400,
  unsupportedType: 415,
  unreadableFile: 422,
  fileNotFound: 404,
  tooLarge: 413,
  /** A document that decompresses to far more than its size (a decompression bomb). */
  archiveBomb: 413,
  urlRefused: 400,
  urlUnreachable: 400,
  urlTimeout: 408,
  urlHttpStatus: 400,
  trainingInProgress: 409,
} as const;

export type RagErrorCode = keyof typeof RAG_ERROR_STATUS;

/**
 * A client error from the retrieval core. It carries `statusCode` like the HTTP layer's HttpError
 * so the error handler answers 4xx (not 500) even before it maps `i18nMessage` explicitly.
 */
export class RagError extends Error {
  readonly code: RagErrorCode;
  readonly statusCode: number;
  readonly i18nMessage: string;
  readonly field: string | undefined;

  constructor(code: RagErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RagError';
    this.code = code;
    this.statusCode = RAG_ERROR_STATUS[code];
    this.i18nMessage = `error.rag.${code}`;
    this.field = options.field;
  }

  /** The API's one error shape (docs/product-rules.md#errors), with the offending field when there is one. */
  toBody(): { message: string; i18nMessage: string; inputErrors?: Array<{ field: string; reason: string }> } {
    const body: { message: string; i18nMessage: string; inputErrors?: Array<{ field: string; reason: string }> } = {
      message: this.message,
      i18nMessage: this.i18nMessage,
    };
    if (this.field) body.inputErrors = [{ field: this.field, reason: this.i18nMessage }];
    return body;
  }
}
