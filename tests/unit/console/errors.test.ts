import { describe, expect, it, vi } from 'vitest';
import { toApiError } from '../../../runtime/transport/to-api-error.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { toFormFailure } from '../../../src/identity/server-errors.ts';
import { setUnauthorizedHandler, transportOptions } from '../../../src/session/api-client.ts';
import { sessionStore } from '../../../src/session/session-store.ts';
import es from '../../../locales/es.json';
import en from '../../../locales/en.json';

const lookup = (tree: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);

describe('error catalogue (docs/product-rules.md#errors)', () => {
  it('login failure shows the i18nMessage, translated', () => {
    const error = toApiError({ kind: 'http', status: 401, body: { message: 'Invalid credentials', i18nMessage: 'error.invalidCredentials' } });
    expect(toFormFailure(error).message).toBe('error.invalidCredentials');
    expect(lookup(en, 'error.invalidCredentials')).toBe('Invalid credentials');
    expect(lookup(es, 'error.invalidCredentials')).toBeTypeOf('string');
  });

  it('maps server input errors to per-field messages', () => {
    const error = toApiError({
      kind: 'http',
      status: 400,
      body: { message: 'bad', inputErrors: [{ field: 'newPassword', reason: 'validation.password.min' }, { field: 'currentPassword', reason: 'validation.required' }, { field: 'newPassword', reason: 'second' }] },
    });
    expect(toFormFailure(error)).toEqual({ message: 'error.validation', fields: { newPassword: 'validation.password.min', currentPassword: 'validation.required' } });
  });

  it('client, server, network and unknown failures have their keys and display texts', () => {
    expect(toApiError({ kind: 'http', status: 404, body: null }).message).toBe('error.client');
    expect(toApiError({ kind: 'http', status: 503, body: { message: 'x' } }).message).toBe('error.server');
    expect(toApiError({ kind: 'timeout' }).message).toBe('error.server');
    expect(toApiError({ kind: 'network' }).message).toBe('error.network');
    expect(toApiError({ kind: 'unknown' }).message).toBe('error.unknown');
    const texts = ['validation', 'server', 'client', 'network', 'unknown', 'badCredentials', 'deletionFailed'].map((key) => lookup(en, `error.${key}`));
    expect(texts).toEqual(['Validation Error', 'Server Error', 'Client Error', 'Network Error', 'Unknown Error', 'Bad Credentials', 'Deletion Failed']);
  });

  it('a plain Error or anything else still yields a message', () => {
    expect(toFormFailure(new Error('boom')).message).toBe('boom');
    expect(toFormFailure('weird').message).toBe('error.unknown');
  });
});

describe('401 from the API', () => {
  it('signs out only when a token is held (a failed login is not a sign-out)', () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const expired = new ApiError('error.tokenExpired', 'client', 401, {});
    transportOptions.onError(expired);
    expect(handler).not.toHaveBeenCalled();
    sessionStore.setToken('some-token');
    transportOptions.onError(new ApiError('error.forbidden', 'client', 403, {}));
    expect(handler).not.toHaveBeenCalled();
    transportOptions.onError(expired);
    expect(handler).toHaveBeenCalledOnce();
    expect(transportOptions.getToken()).toBe('some-token');
    sessionStore.clear();
  });
});
