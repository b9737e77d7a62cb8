import { isTokenValid, msUntilExpiry } from './jwt.ts';
import { emitSessionEvent } from './session-events.ts';
import { forgetSignOutReason, rememberSignOutReason, type SignOutReason } from './sign-out-reason.ts';
import type { SessionStore } from './session-store.ts';
import type { IdentityApi } from './identity-api.ts';
import type { SessionUser } from './session-types.ts';

/** setTimeout's upper bound (~24.8 days); longer tokens are re-checked when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Session transitions of docs/product-rules.md#states, kept apart from React so they are unit-testable with a fake
 * API and an in-memory store.
 */
export function createSessionActions(store: SessionStore, api: IdentityApi, log: Pick<Console, 'error'> = console) {
  let expiryTimer: ReturnType<typeof setTimeout> | null = null;

  /** Signs out; with a reason (the session expired) when the console did it, not the user. */
  function signOut(reason?: SignOutReason): void {
    if (expiryTimer) clearTimeout(expiryTimer);
    expiryTimer = null;
    const wasSignedIn = store.getState().token !== null || store.getState().user !== null;
    if (reason && wasSignedIn) rememberSignOutReason(reason);
    else if (!reason) forgetSignOutReason();
    store.clear();
    if (wasSignedIn) emitSessionEvent('logout');
  }

  /** Signs out when the token's exp passes, even if no request notices it. */
  function scheduleExpiry(token: string): void {
    if (expiryTimer) clearTimeout(expiryTimer);
    if (typeof setTimeout === 'undefined') return;
    expiryTimer = setTimeout(
      () => {
        if (store.getState().token !== token) return;
        if (isTokenValid(token)) scheduleExpiry(token);
        else signOut('expired');
      },
      Math.min(msUntilExpiry(token) + 50, MAX_TIMER_MS),
    );
  }

  async function reloadUser(): Promise<SessionUser | null> {
    const user = await api.me();
    store.setUser(user);
    return user;
  }

  /** Token login: store a valid token, then load the user. An invalid token signs out. */
  async function loginWithToken(token: string): Promise<SessionUser> {
    if (!isTokenValid(token)) {
      signOut();
      throw new Error('error.tokenInvalid');
    }
    store.setToken(token);
    scheduleExpiry(token);
    try {
      const user = await api.me();
      store.setUser(user);
      return user;
    } catch (error) {
      signOut();
      throw error;
    }
  }

  return {
    signOut,
    reloadUser,
    loginWithToken,

    /** Username/password sign-in; emits login-success. Errors propagate to the form. */
    async login(username: string, password: string): Promise<SessionUser> {
      const { accessToken } = await api.login(username.trim(), password);
      const user = await loginWithToken(accessToken);
      forgetSignOutReason();
      emitSessionEvent('login-success');
      return user;
    },

    /** Google: post the credential, use the returned token; failures emit login-failed. */
    async loginWithGoogle(credential: string): Promise<SessionUser> {
      try {
        const { accessToken } = await api.googleLogin(credential);
        const user = await loginWithToken(accessToken);
        forgetSignOutReason();
        emitSessionEvent('login-success');
        return user;
      } catch (error) {
        log.error('Error en el login', error);
        emitSessionEvent('login-failed');
        throw error;
      }
    },

    /** App start: drop an invalid or expired token; with a valid one reload the user. */
    async restore(): Promise<void> {
      const { token } = store.getState();
      if (!token) {
        if (store.getState().user) store.clear();
        return;
      }
      if (!isTokenValid(token)) {
        signOut('expired');
        return;
      }
      scheduleExpiry(token);
      try {
        await reloadUser();
      } catch (error) {
        // A 401 already signed out through the transport; other failures keep the stored user.
        log.error(error);
      }
    },
  };
}

export type SessionActions = ReturnType<typeof createSessionActions>;
