import { describe, expect, it } from 'vitest';
import { groupInputErrors, toApiError } from '../../../runtime/transport/to-api-error.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';

describe('toApiError (docs/product-rules.md#errors)', () => {
  it('4xx with input errors is error.validation with reasons grouped by field', () => {
    const error = toApiError({
      kind: 'http',
      status: 400,
      body: {
        message: 'Validation failed',
        i18nMessage: 'x.y',
        inputErrors: [
          { field: 'name', reason: 'validation.required' },
          { field: 'chunks.0.content', reason: 'validation.required' },
          { field: 'name', reason: 'validation.unique' },
        ],
      },
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('error.validation');
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(400);
    expect(error.inputErrors).toEqual({ name: ['validation.required', 'validation.unique'], 'chunks.0.content': ['validation.required'] });
  });

  it('4xx prefers i18nMessage, then message, then error, then error.client', () => {
    expect(toApiError({ kind: 'http', status: 409, body: { i18nMessage: 'validation.unique', message: 'dup', error: 'Conflict' } }).message).toBe('validation.unique');
    expect(toApiError({ kind: 'http', status: 404, body: { message: 'Not found', error: 'Not Found' } }).message).toBe('Not found');
    expect(toApiError({ kind: 'http', status: 403, body: { error: 'Forbidden' } }).message).toBe('Forbidden');
    expect(toApiError({ kind: 'http', status: 400, body: 'not json' }).message).toBe('error.client');
    expect(toApiError({ kind: 'http', status: 400, body: { inputErrors: [] } }).message).toBe('error.client');
  });

  it('keeps the i18nMessage\'s placeholder values (a 409\'s count), never for a plain message', () => {
    const inUse = toApiError({ kind: 'http', status: 409, body: { message: 'Role "X" is used by 3 records', i18nMessage: 'error.roleInUse', i18nParams: { count: 3 } } });
    expect([inUse.message, inUse.params]).toEqual(['error.roleInUse', { count: 3 }]);
    expect(toApiError({ kind: 'http', status: 409, body: { message: 'plain', i18nParams: { count: 3 } } }).params).toEqual({});
    expect(toApiError({ kind: 'http', status: 409, body: { i18nMessage: 'k', i18nParams: ['x'] } }).params).toEqual({});
  });

  it('5xx, aborted and timed-out calls are error.server', () => {
    expect(toApiError({ kind: 'http', status: 500, body: { message: 'boom' } }).message).toBe('error.server');
    expect(toApiError({ kind: 'http', status: 503, body: null }).message).toBe('error.server');
    expect(toApiError({ kind: 'aborted' }).message).toBe('error.server');
    expect(toApiError({ kind: 'timeout' }).message).toBe('error.server');
  });

  it('network failures are error.network and anything else error.unknown', () => {
    expect(toApiError({ kind: 'network' }).message).toBe('error.network');
    expect(toApiError({ kind: 'unknown', cause: 1 }).message).toBe('error.unknown');
    expect(toApiError({ kind: 'http', status: 302, body: null }).message).toBe('error.unknown');
  });

  it('groupInputErrors ignores malformed entries', () => {
    expect(groupInputErrors(undefined)).toEqual({});
    expect(groupInputErrors([{ field: 'a', reason: 'r' }, null as never])).toEqual({ a: ['r'] });
  });
});
