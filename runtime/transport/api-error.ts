export type ApiErrorKind = 'validation' | 'client' | 'server' | 'network' | 'unknown';

/** One server validation problem: reason is an i18n key, field a dotted path (parent.index.field). */
export interface InputError {
  field: string;
  reason: string;
}

/** The server's one error shape (docs/product-rules.md#errors). */
export interface ServerErrorBody {
  message?: string;
  i18nMessage?: string;
  error?: string;
  inputErrors?: InputError[];
  /** Values for the i18nMessage's placeholders (e.g. {count} of error.roleInUse). */
  i18nParams?: Record<string, unknown>;
}

/**
 * Every failed call surfaces as this. `message` is what the UI shows: an i18n key
 * (error.validation, error.server, ...) or the server's own text, so the UI translates it when it
 * is a key and prints it otherwise.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status: number | null,
    /** Reasons grouped by field path. */
    readonly inputErrors: Record<string, string[]>,
    readonly body: unknown = null,
    /** Values for the message's placeholders, when the message is a key that has them. */
    readonly params: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
