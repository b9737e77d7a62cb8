import { RestTransport } from '../../runtime/transport/rest-transport.ts';
import type { ApiError } from '../../runtime/transport/api-error.ts';
import { sessionStore } from './session-store.ts';

/**
 * Every request reads the token from the session store, so login and logout take effect at once;
 * any 401 (expired or revoked token, i18nMessage 'error.tokenExpired') while signed in signs out.
 */
export const transportOptions = {
  getToken: () => sessionStore.getState().token,
  onError: (error: ApiError) => {
    if (error.status === 401 && sessionStore.getState().token) unauthorizedHandler();
  },
};

let unauthorizedHandler: () => void = () => sessionStore.clear();

/** The session actions install the real sign-out (clear + event) here. */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

/** REST client for identity, settings and permissions calls (these have no GraphQL variant in the UI). */
export const restApi = new RestTransport(transportOptions);
