import type { Can } from '../../runtime/permissions/permissions-context.tsx';
import { userCan } from '../session/permissions.ts';
import type { SessionUser } from '../session/session-types.ts';

/** The runtime's permission check for a user (docs/product-rules.md#permissions); the app re-creates it when the user changes. */
export function canFor(user: SessionUser | null): Can {
  return (permission) => userCan(user, permission);
}
