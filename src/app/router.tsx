import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, StaticRouter } from 'react-router-dom';
import { crudRoutes } from './crud-routes.ts';
import { featureRoutes, type FeatureRoute } from './feature-routes.tsx';
import { accountRoutes } from './app-routes.tsx';
import { RequireAccess } from './require-access.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { ChatLayout } from './layouts/chat-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PageFallback } from './page-fallback.tsx';
import { crudRouteAccess } from './crud-route-access.ts';
import { AllTexts } from './all-texts.tsx';

// Signed-in screens share one chunk of contexts (entity clients, permissions) and the CRUD route element (signed-in-console.tsx):
// one import, so both arrive together, and none of it is on the sign-in page.
const loadSignedInConsole = () => import('./signed-in-console.tsx');
const SignedInConsole = lazy(() => loadSignedInConsole().then((module) => ({ default: module.SignedInConsole })));
const CrudRoute = lazy(() => loadSignedInConsole().then((module) => ({ default: module.EntityCrudRoute })));
const LiveCrudRoute = lazy(() => loadSignedInConsole().then((module) => ({ default: module.LiveEntityCrudRoute })));

/** Every routed screen in one list, tagged with its layout and access rule. */
export interface RoutedScreen {
  path: string;
  layout: FeatureRoute['layout'];
  auth: boolean;
  /** Any one of these lets a signed-in user open the screen; null: being signed in is enough. */
  permissions: readonly string[] | null;
  element: ReactNode;
}

export const routedScreens: RoutedScreen[] = [
  ...accountRoutes.map(({ path, component: Screen, layout, auth, permissions }) => ({ path, layout, auth, permissions, element: <Screen /> })),
  ...crudRoutes.map((route) => ({
    path: route.path,
    layout: 'default' as const,
    auth: true,
    permissions: crudRouteAccess(route.access),
    element: <CrudRoute entity={route.entity} />,
  })),
  ...featureRoutes.map(({ path, component: Screen, layout, auth, permissions }) => ({ path, layout, auth, permissions, element: <Screen /> })),
  // An entity page this build does not know (added by the schema studio and applied live): the
  // router prefers every static path above, so only such pages come here (else: not found).
  { path: '/crud/:page', layout: 'default', auth: true, permissions: null, element: <LiveCrudRoute /> },
];

// TanStack Query: a chunk of its own that every screen but the sign-in page renders in.
const WithQueryClient = lazy(() => import('./with-query-client.tsx'));
/**
 * The screens that fetch nothing through TanStack Query and need only the texts in the entry
 * (src/app/boot-texts.ts), so they load faster without either.
 */
const LEAN_SCREENS = new Set(['/login']);

function guarded(screen: RoutedScreen) {
  return (
    <Route
      key={screen.path}
      path={screen.path}
      element={
        <RequireAccess access={{ auth: screen.auth, permissions: screen.permissions }}>
          <Suspense fallback={<PageFallback />}>
            {LEAN_SCREENS.has(screen.path) ? (
              screen.element
            ) : (
              <AllTexts>
                <WithQueryClient>{screen.element}</WithQueryClient>
              </AllTexts>
            )}
          </Suspense>
        </RequireAccess>
      }
    />
  );
}

/**
 * A layout's screens: the public ones as they are, the signed-in ones inside the signed-in console,
 * which a signed-out visitor never loads (sent to /login first).
 */
function screensOf(layout: FeatureRoute['layout']) {
  const screens = routedScreens.filter((screen) => (screen.layout === 'chat') === (layout === 'chat'));
  return [
    ...screens.filter((screen) => !screen.auth).map(guarded),
    <Route
      key="signed-in"
      element={
        <RequireAccess access={{ auth: true, permissions: null }}>
          <Suspense fallback={<PageFallback />}>
            <AllTexts>
              <SignedInConsole framed={layout === 'default'} />
            </AllTexts>
          </Suspense>
        </RequireAccess>
      }
    >
      {screens.filter((screen) => screen.auth).map(guarded)}
    </Route>,
  ];
}

/**
 * Routes grouped under their layout (docs/product-rules.md#screens Layouts: default unless the route says chat). With a
 * `location`, a router fixed at that path: how the build prerenders the sign-in page (the same
 * tree as in the browser, so React can hydrate it).
 */
export function AppRouter({ location }: { location?: string }) {
  const routes = (
    <Routes>
      <Route element={<DefaultLayout />}>
        {screensOf('default')}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route element={<ChatLayout />}>{screensOf('chat')}</Route>
    </Routes>
  );
  return location === undefined ? <BrowserRouter>{routes}</BrowserRouter> : <StaticRouter location={location}>{routes}</StaticRouter>;
}
