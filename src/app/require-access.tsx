import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useIsAuthenticated, useSessionCan } from '../session/session.ts';
import { guardRedirect, type RouteAccess } from './guard.ts';

/** Renders children when the guard allows the route, else redirects to /login?redirect=... */
export function RequireAccess({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const authenticated = useIsAuthenticated();
  const can = useSessionCan();
  const location = useLocation();
  const target = guardRedirect(access, { authenticated, can }, location);
  return target ? <Navigate to={target} replace /> : <>{children}</>;
}
