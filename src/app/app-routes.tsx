import { lazy } from 'react';
import { permissionsGranting } from '../../contract/permissions/entity-access.ts';
import { entities } from '../generated/entities.ts';
import type { FeatureRoute } from './feature-routes.tsx';

const GalleryPage = lazy(() => import('../home/gallery-page.tsx'));

/**
 * The console's own screens (spec §2 "Auth and account routes"), each its own chunk. The generated
 * /crud/* routes and the hand-written featureRoutes join them in router.tsx.
 */
export const accountRoutes: FeatureRoute[] = [
  open('/login', lazy(() => import('../identity/login-page.tsx'))),
  open('/registration', lazy(() => import('../identity/registration-page.tsx'))),
  open('/password/recovery/request', lazy(() => import('../identity/recovery-request-page.tsx'))),
  open('/password/recovery/complete/:code', lazy(() => import('../identity/recovery-complete-page.tsx'))),
  signedIn('/profile', lazy(() => import('../identity/profile-page.tsx'))),
  signedIn('/password/change', lazy(() => import('../identity/password-change-page.tsx'))),
  open('/login/google/callback', lazy(() => import('../identity/google-callback-page.tsx'))),
  open('/politica-privacidad', lazy(() => import('../identity/privacy-page.tsx'))),
  open('/condiciones-servicio', lazy(() => import('../identity/terms-page.tsx'))),
  signedIn('/', GalleryPage),
  signedIn('/home', GalleryPage),
  // GET /api/settings needs setting:view or :manage; the page offers editing only with the latter.
  signedIn('/settings', lazy(() => import('../settings/settings-page.tsx')), permissionsGranting(entities.setting.permissions, 'view')),
];

function open(path: string, component: FeatureRoute['component']): FeatureRoute {
  return { path, component, layout: 'default', auth: false, permissions: null };
}

function signedIn(path: string, component: FeatureRoute['component'], permissions: readonly string[] | null = null): FeatureRoute {
  return { path, component, layout: 'default', auth: true, permissions };
}
