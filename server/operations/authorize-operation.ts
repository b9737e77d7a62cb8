import type { Authorizer, RoutePermission } from '../http/authorizer.ts';
import { HttpError } from '../http/http-error.ts';
import { authenticationError } from '../http/authentication-error.ts';
import { isSystemContext } from '../entities/system-context.ts';
import type { OperationCaller } from './operation-caller.ts';

/**
 * The one permission decision of an operation: the authorizer's answer for this caller and what
 * the operation requires, as the error every transport answers with (401 saying why, 403 naming
 * the permission). system() is the explicit override: it passes without asking the authorizer.
 */
export async function authorizeOperation(authorizer: Authorizer, caller: OperationCaller, required: RoutePermission): Promise<void> {
  const { context } = caller;
  if (isSystemContext(context)) return;
  const result = await authorizer({ context, required, request: caller.request });
  if (result === 'allow') return;
  if (result === 'unauthenticated') throw authenticationError(context);
  throw new HttpError(403, `Missing permission ${required.permission}`, { i18nMessage: 'error.forbidden' });
}
