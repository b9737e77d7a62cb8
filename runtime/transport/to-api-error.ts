import { ApiError, type InputError, type ServerErrorBody } from './api-error.ts';

/** What went wrong, as the transport observed it; HTTP details only when a response arrived. */
export type FailedCall =
  | { kind: 'http'; status: number; body: unknown }
  | { kind: 'aborted' }
  | { kind: 'timeout' }
  | { kind: 'network' }
  | { kind: 'unknown'; cause?: unknown };

/** docs/product-rules.md#errors error catalogue as a pure mapping, so every transport reports failures alike. */
export function toApiError(call: FailedCall): ApiError {
  switch (call.kind) {
    case 'http':
      return fromHttp(call.status, call.body);
    case 'aborted':
    case 'timeout':
      return new ApiError('error.server', 'server', null, {});
    case 'network':
      return new ApiError('error.network', 'network', null, {});
    default:
      return new ApiError('error.unknown', 'unknown', null, {});
  }
}

function fromHttp(status: number, body: unknown): ApiError {
  const payload = asServerBody(body);
  const inputErrors = groupInputErrors(payload.inputErrors);
  if (status >= 400 && status < 500) {
    if (Object.keys(inputErrors).length > 0) {
      return new ApiError('error.validation', 'validation', status, inputErrors, body);
    }
    const message = firstText(payload.i18nMessage, payload.message, payload.error) ?? 'error.client';
    const params = payload.i18nParams && typeof payload.i18nParams === 'object' && !Array.isArray(payload.i18nParams) ? payload.i18nParams : {};
    return new ApiError(message, 'client', status, {}, body, message === payload.i18nMessage ? params : {});
  }
  if (status >= 500 && status < 600) return new ApiError('error.server', 'server', status, inputErrors, body);
  return new ApiError('error.unknown', 'unknown', status, {}, body);
}

/** Groups field/reason pairs by field, keeping each field's reasons in server order. */
export function groupInputErrors(errors: readonly InputError[] | undefined): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  if (!Array.isArray(errors)) return grouped;
  for (const error of errors) {
    if (!error || typeof error.field !== 'string') continue;
    (grouped[error.field] ??= []).push(String(error.reason));
  }
  return grouped;
}

function asServerBody(body: unknown): ServerErrorBody {
  return body !== null && typeof body === 'object' ? (body as ServerErrorBody) : {};
}

function firstText(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  return undefined;
}
