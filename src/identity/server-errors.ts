import { isApiError } from '../../runtime/transport/api-error.ts';

/** The identity forms' fields that can carry a server message (docs/product-rules.md#errors). */
export const IDENTITY_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword', 'username', 'name', 'email', 'phone', 'recoveryCode', 'password'] as const;

export interface FormFailure {
  /** Shown in the red alert: a locale key or the server's text. */
  message: string;
  /** First server reason per field (locale key or text). */
  fields: Partial<Record<string, string>>;
}

/**
 * Maps a failed identity call to the alert text and per-field messages (docs/product-rules.md#errors): the ApiError
 * message (already chosen by the error catalogue), and inputErrors grouped by field name.
 */
export function toFormFailure(error: unknown): FormFailure {
  if (isApiError(error)) {
    const fields: Partial<Record<string, string>> = {};
    for (const [field, reasons] of Object.entries(error.inputErrors)) {
      if (reasons[0]) fields[field] = reasons[0];
    }
    return { message: error.message, fields };
  }
  if (error instanceof Error && error.message) return { message: error.message, fields: {} };
  return { message: 'error.unknown', fields: {} };
}
