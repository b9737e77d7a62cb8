import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { crudRoutes } from './crud-routes.ts';
import { featureRoutes, type FeatureRoute } from './feature-routes.tsx';
import { accountRoutes } from './app-routes.tsx';
import { RequireAccess } from './require-access.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { ChatLayout } from './layouts/chat-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { CrudRoute } from './crud-route.tsx';
import { PageFallback } from './page-fallback.tsx';
import { crudRouteAccess } from './crud-route-access.ts';

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
    permissions: crudRouteAccess(route.model),
    element: <CrudRoute model={route.model} />,
  })),
  ...featureRoutes.map(({ path, component: Screen, layout, auth, permissions }) => ({ path, layout, auth, permissions, element: <Screen /> })),
];

function guarded(screen: RoutedScreen) {
  return (
    <Route
      key={screen.path}
      path={screen.path}
      element={
        <RequireAccess access={{ auth: screen.auth, permissions: screen.permissions }}>
          <Suspense fallback={<PageFallback />}>{screen.element}</Suspense>
        </RequireAccess>
      }
    />
  );
}

/** Routes grouped under their layout (spec §2 Layouts: default unless the route says chat). */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<DefaultLayout />}>
          {routedScreens.filter((screen) => screen.layout !== 'chat').map(guarded)}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route element={<ChatLayout />}>{routedScreens.filter((screen) => screen.layout === 'chat').map(guarded)}</Route>
      </Routes>
    </BrowserRouter>
  );
}
