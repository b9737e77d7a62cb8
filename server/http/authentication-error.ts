import { HttpError } from './http-error.ts';
import type { RequestContext } from './request-context.ts';

/**
 * 401 saying why: an expired token has its own key (the console signs out on it), a refused
 * address says so, anything else is "Authentication required".
 */
export function authenticationError(context: RequestContext): HttpError {
  switch (context.authFailure) {
    case 'expired':
      return new HttpError(401, 'Token expired', { i18nMessage: 'error.tokenExpired' });
    case 'ipNotAllowed':
      return new HttpError(401, 'IP not allowed', { i18nMessage: 'error.ipNotAllowed' });
    default:
      return new HttpError(401, 'Authentication required', { i18nMessage: 'error.authRequired' });
  }
}
