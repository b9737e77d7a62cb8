import { lazy } from 'react';
import { permissionsGranting } from '../../contract/permissions/entity-access.ts';
import { entityAccess } from '../generated/entity-access.ts';
import type { FeatureRoute } from './feature-routes.tsx';
import LoginPage from '../identity/login-page.tsx';

const GalleryPage = lazy(() => import('../home/gallery-page.tsx'));
// The sign-in page is in the entry chunk, not a chunk of its own: it is the first screen of every
// visit that is not signed in, and the UI kit pieces it uses then come with the entry instead of
// with the UI kit chunk every other screen shares (about 90 KB compressed it would wait for).
// Not wrapped in React.lazy either: a lazy component suspends on its first render even when its
// module is loaded, and React holds a revealed Suspense boundary back for up to 300 ms
// (its fallback throttle), which was most of the sign-in page's cold load.

/**
 * The console's own screens (docs/product-rules.md#screens "Auth and account routes"), each its own chunk. The generated
 * /crud/* routes and the hand-written featureRoutes join them in router.tsx.
 */
export const accountRoutes: FeatureRoute[] = [
  open('/login', LoginPage),
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
  signedIn('/settings', lazy(() => import('../settings/settings-page.tsx')), permissionsGranting(entityAccess.setting.permissions, 'view')),
];

function open(path: string, component: FeatureRoute['component']): FeatureRoute {
  return { path, component, layout: 'default', auth: false, permissions: null };
}

function signedIn(path: string, component: FeatureRoute['component'], permissions: readonly string[] | null = null): FeatureRoute {
  return { path, component, layout: 'default', auth: true, permissions };
}
