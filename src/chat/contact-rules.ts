/** The chat contact form's rules (docs/product-rules.md#validation), the same the server applies; values are locale keys. */
export const CONTACT_NAME_MIN = 2;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'chat.validation.nameRequired';
  if ([...trimmed].length < CONTACT_NAME_MIN) return 'chat.validation.nameMin';
  return null;
}

export function emailError(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === '') return 'chat.validation.emailRequired';
  if (!EMAIL_PATTERN.test(trimmed)) return 'chat.validation.emailInvalid';
  return null;
}
