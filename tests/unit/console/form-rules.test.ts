import { describe, expect, it } from 'vitest';
import {
  adminPasswordErrors,
  canSubmitLogin,
  canSubmitPasswordChange,
  canSubmitRecoveryComplete,
  confirmationError,
  recoveryRequestError,
  registrationErrors,
} from '../../../src/identity/form-rules.ts';

describe('identity form rules (docs/product-rules.md#validation)', () => {
  it('sign-in needs both fields non-blank after trimming', () => {
    expect(canSubmitLogin('', '')).toBe(false);
    expect(canSubmitLogin('admin', '   ')).toBe(false);
    expect(canSubmitLogin('  ', 'x')).toBe(false);
    expect(canSubmitLogin(' admin ', ' x ')).toBe(true);
  });

  it('recovery request needs an e-mail of the form a@b.c', () => {
    expect(recoveryRequestError('')).toBe('validation.required');
    expect(recoveryRequestError('nope')).toBe('validation.email.invalid');
    expect(recoveryRequestError('a b@c.de')).toBe('validation.email.invalid');
    expect(recoveryRequestError('a@b')).toBe('validation.email.invalid');
    expect(recoveryRequestError(' ana@example.com ')).toBeNull();
  });

  it('own password change: current and new non-empty and new equals confirmation (trimmed)', () => {
    expect(canSubmitPasswordChange({ currentPassword: '', newPassword: 'abc', confirmPassword: 'abc' })).toBe(false);
    expect(canSubmitPasswordChange({ currentPassword: 'old', newPassword: ' ', confirmPassword: ' ' })).toBe(false);
    expect(canSubmitPasswordChange({ currentPassword: 'old', newPassword: 'abc', confirmPassword: 'abd' })).toBe(false);
    expect(canSubmitPasswordChange({ currentPassword: 'old', newPassword: ' abc', confirmPassword: 'abc ' })).toBe(true);
    expect(confirmationError('abc', '')).toBeNull();
    expect(confirmationError('abc', 'abd')).toBe('validation.password.confirmed');
  });

  it('admin password change blocks until new and confirmation match', () => {
    expect(adminPasswordErrors('', '')).toEqual({ newPassword: 'validation.required', confirmPassword: 'validation.required' });
    expect(adminPasswordErrors('Secret123', 'Secret124')).toEqual({ confirmPassword: 'validation.password.confirmed' });
    expect(adminPasswordErrors('Secret123', ' Secret123 ')).toEqual({});
  });

  it('recovery complete needs code, new and confirmation, equal', () => {
    expect(canSubmitRecoveryComplete('', 'a', 'a')).toBe(false);
    expect(canSubmitRecoveryComplete('code', 'a', 'b')).toBe(false);
    expect(canSubmitRecoveryComplete('code', 'a', '')).toBe(false);
    expect(canSubmitRecoveryComplete('code', 'a', 'a')).toBe(true);
  });

  it('registration requires name, username, email, phone and matching passwords', () => {
    const empty = { username: '', name: '', email: '', phone: '', password: '', confirmPassword: '' };
    expect(registrationErrors(empty)).toEqual({
      name: 'validation.required',
      username: 'validation.required',
      email: 'validation.required',
      phone: 'validation.required',
      password: 'validation.required',
      confirmPassword: 'validation.required',
    });
    const filled = { username: 'ana', name: 'Ana', email: 'ana@example.com', phone: '600', password: 'Secret123', confirmPassword: 'Secret123 ' };
    expect(registrationErrors(filled)).toEqual({});
    expect(registrationErrors({ ...filled, email: 'x' })).toEqual({ email: 'validation.email.invalid' });
    expect(registrationErrors({ ...filled, confirmPassword: 'other' })).toEqual({ confirmPassword: 'validation.password.confirmed' });
  });
});
