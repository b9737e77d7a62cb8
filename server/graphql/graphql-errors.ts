import mercurius from 'mercurius';
import { HttpError } from '../http/http-error.ts';

/**
 * The REST error shape carried in GraphQL `extensions`: { status, message, i18nMessage, inputErrors },
 * so a client maps GraphQL and REST failures the same way (docs/product-rules.md#errors).
 */
export function toGraphqlError(error: unknown, httpStatus = 200): Error {
  if (error instanceof HttpError) {
    const body = error.toBody();
    return new mercurius.ErrorWithProps(body.message, { status: error.statusCode, ...body }, httpStatus);
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new mercurius.ErrorWithProps((error as Error).message, { status, message: (error as Error).message }, 200);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs a resolver body, translating HTTP-style errors into GraphQL errors with extensions. */
export async function resolving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toGraphqlError(error);
  }
}
