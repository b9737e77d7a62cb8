export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

export interface PasswordProblem {
  field: string;
  reason: string;
}

/** docs/product-rules.md#validation: 8 to 64 characters. Returns the problem, keyed by the form field it belongs to. */
export function checkPasswordLength(password: unknown, field = 'newPassword'): PasswordProblem | null {
  if (typeof password !== 'string' || password.trim() === '') return { field, reason: 'validation.required' };
  if (password.length < PASSWORD_MIN_LENGTH) return { field, reason: 'validation.password.min' };
  if (password.length > PASSWORD_MAX_LENGTH) return { field, reason: 'validation.password.max' };
  return null;
}
