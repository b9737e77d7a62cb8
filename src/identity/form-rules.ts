import type { RegistrationInput } from '../session/identity-api.ts';

/**
 * The enable/disable and validation rules of the identity forms (docs/product-rules.md#screens, #validation), as pure functions
 * so each is unit-tested. Messages are locale keys.
 */
export type FieldErrors = Partial<Record<string, string>>;

const filled = (value: string | null | undefined) => (value ?? '').trim() !== '';

/** Sign-in: username and password each non-empty after trimming. */
export function canSubmitLogin(username: string, password: string): boolean {
  return filled(username) && filled(password);
}

/** An e-mail of the form local@domain.tld with no spaces. */
export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
}

/** Recovery request: the button is enabled only with a valid e-mail. */
export function recoveryRequestError(email: string): string | null {
  if (!filled(email)) return 'validation.required';
  return isValidEmail(email) ? null : 'validation.email.invalid';
}

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change own password: current and new non-empty, new equals confirmation (trimmed). */
export function canSubmitPasswordChange({ currentPassword, newPassword, confirmPassword }: PasswordChangeInput): boolean {
  return filled(currentPassword) && filled(newPassword) && newPassword.trim() === confirmPassword.trim();
}

/** The confirmation message once the user typed one that differs. */
export function confirmationError(newPassword: string, confirmPassword: string): string | null {
  return filled(confirmPassword) && newPassword.trim() !== confirmPassword.trim() ? 'validation.password.confirmed' : null;
}

/** Admin password change: new and confirmation must be non-empty and match; submission blocked otherwise. */
export function adminPasswordErrors(newPassword: string, confirmPassword: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!filled(newPassword)) errors.newPassword = 'validation.required';
  if (!filled(confirmPassword)) errors.confirmPassword = 'validation.required';
  else if (newPassword.trim() !== confirmPassword.trim()) errors.confirmPassword = 'validation.password.confirmed';
  return errors;
}

/** Recovery complete: code, new password and confirmation non-empty; new equals confirmation. */
export function canSubmitRecoveryComplete(code: string, newPassword: string, confirmPassword: string): boolean {
  return filled(code) && filled(newPassword) && filled(confirmPassword) && newPassword.trim() === confirmPassword.trim();
}

/** Registration: name, username, email, phone required; password and confirmation equal after trimming. */
export function registrationErrors(form: RegistrationInput): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['name', 'username', 'email', 'phone', 'password'] as const) {
    if (!filled(form[field])) errors[field] = 'validation.required';
  }
  if (!errors.email && !isValidEmail(form.email)) errors.email = 'validation.email.invalid';
  if (!filled(form.confirmPassword)) errors.confirmPassword = 'validation.required';
  else if (form.password.trim() !== form.confirmPassword.trim()) errors.confirmPassword = 'validation.password.confirmed';
  return errors;
}

export const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);
