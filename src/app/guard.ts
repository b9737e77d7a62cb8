/** Who may open a route (spec §2 Guard). */
export interface RouteAccess {
  /** false: public. */
  auth: boolean;
  /** Needed besides being signed in; null: none. */
  permission: string | null;
}

export interface Viewer {
  authenticated: boolean;
  can: (permission: string) => boolean;
}

/**
 * Spec §2: a route needing authentication while signed out, or needing a permission the user
 * lacks, redirects to /login with a redirect query holding the full path (path + search + hash).
 * Returns the redirect target, or null when the route may render.
 */
export function guardRedirect(access: RouteAccess, viewer: Viewer, location: { pathname: string; search?: string; hash?: string }): string | null {
  const needsAuth = access.auth || access.permission !== null;
  if (!needsAuth) return null;
  const allowed = viewer.authenticated && (access.permission === null || viewer.can(access.permission));
  if (allowed) return null;
  const full = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  return `/login?redirect=${encodeURIComponent(full)}`;
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
