import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useIsAuthenticated, useSessionCan, useSessionState } from '../session/session.ts';
import { guardDecision, type RouteAccess } from './guard.ts';
import { NoPermissionPage } from './no-permission-page.tsx';
import { PageFallback } from './page-fallback.tsx';

/** Renders children when the guard allows the route; signed out: /login?redirect=...; else says who may not. */
export function RequireAccess({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const authenticated = useIsAuthenticated();
  const can = useSessionCan();
  const { user } = useSessionState();
  const location = useLocation();
  const decision = guardDecision(access, { authenticated, userLoaded: user !== null, can }, location);
  if (decision.kind === 'loading') return <PageFallback />;
  if (decision.kind === 'login') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'forbidden') return <NoPermissionPage />;
  return <>{children}</>;
}
