import type { Authorizer } from '../http/authorizer.ts';
import { hasPermission } from '../http/request-context.ts';

/**
 * The server's authorizer: anonymous callers are 401, signed-in callers need the route's
 * permission or one of its alternatives. Alternatives are the entity's `:manage` (manage implies
 * view, create, update and delete of that entity) and its "own" variant (userApiKey:myView /
 * myCreate), which the entity service then narrows to the caller's own records.
 */
export const permissionAuthorizer: Authorizer = ({ context, required }) => {
  if (context.userId === null) return 'unauthenticated';
  if (hasPermission(context, required.permission)) return 'allow';
  return required.alternatives.some((alternative) => hasPermission(context, alternative)) ? 'allow' : 'deny';
};
