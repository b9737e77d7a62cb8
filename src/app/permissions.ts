import type { Can } from '../../runtime/permissions/permissions-context.tsx';

/**
 * No session yet: the server lets every request through, so the UI allows everything. The
 * identity issue replaces this with a check against the signed-in user's role permissions.
 */
export const allowAll: Can = () => true;
