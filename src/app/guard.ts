/** Who may open a route (docs/product-rules.md#screens Guard). */
export interface RouteAccess {
  /** false: public. */
  auth: boolean;
  /** Any one of these is needed besides being signed in; null: none. */
  permissions: readonly string[] | null;
}

export type GuardDecision = { kind: 'allow' } | { kind: 'login'; to: string } | { kind: 'forbidden' } | { kind: 'loading' };

export interface Viewer {
  authenticated: boolean;
  /** The signed-in user (and so their permissions) is known; false between storing a token and /me answering. */
  userLoaded: boolean;
  can: (permission: string) => boolean;
}

/**
 * docs/product-rules.md#screens: a route needing authentication while signed out redirects to /login with a redirect
 * query holding the full path (path + search + hash). A signed-in user lacking the route's
 * permission is told so on the page instead: sending them to a sign-in form they have just
 * passed only looked like a broken session.
 */
export function guardDecision(access: RouteAccess, viewer: Viewer, location: { pathname: string; search?: string; hash?: string }): GuardDecision {
  const needsAuth = access.auth || access.permissions !== null;
  if (!needsAuth) return { kind: 'allow' };
  if (!viewer.authenticated) {
    const full = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
    return { kind: 'login', to: `/login?redirect=${encodeURIComponent(full)}` };
  }
  // Right after sign-in the token is stored before the user is: deciding then would flash a
  // "no permission" page (or an empty home) at someone who has the permission.
  if (!viewer.userLoaded) return { kind: 'loading' };
  const allowed = access.permissions === null || access.permissions.some((permission) => viewer.can(permission));
  return allowed ? { kind: 'allow' } : { kind: 'forbidden' };
}

/**
 * Where to go after signing in: the redirect query when it is a same-origin path, else '/'.
 * Refuses absolute and protocol-relative URLs so the login page cannot be used as an open redirect.
 */
export function safeRedirectTarget(redirect: string | null | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  if (redirect === '/login' || redirect.startsWith('/login?') || redirect.startsWith('/login/')) {
    return '/';
  }
  return redirect;
}
