import { useMemo, useSyncExternalStore } from 'react';
import { restApi, setUnauthorizedHandler } from './api-client.ts';
import { identityApi } from './identity-api.ts';
import { createSessionActions } from './session-actions.ts';
import { sessionStore } from './session-store.ts';
import { userCan } from './permissions.ts';
import type { SessionState } from './session-types.ts';

/** The console's identity API over the shared REST client. */
export const api = identityApi((call) => restApi.call(call));

/** The console's session actions (login, logout, restore...). */
export const session = createSessionActions(sessionStore, api);
// A 401 while signed in: the token expired or was revoked; the sign-in page says so.
setUnauthorizedHandler(() => session.signOut('expired'));

export function useSessionState(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}

/** Signed in = an unexpired token (the user may still be loading). */
export function useIsAuthenticated(): boolean {
  const { token } = useSessionState();
  return sessionStore.isAuthenticated() && token !== null;
}

/** `can(permission)` for the signed-in user (docs/product-rules.md#permissions). */
export function useSessionCan(): (permission: string | null | undefined) => boolean {
  const { user } = useSessionState();
  return useMemo(() => (permission: string | null | undefined) => userCan(user, permission), [user]);
}

export { sessionStore, userCan };
