import { lazy, Suspense } from 'react';
import { AppShell, Center, Group, Loader, MantineProvider, Anchor, Title, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { RuntimeProvider } from '../../runtime/context/runtime-context.tsx';
import { PermissionsProvider } from '../../runtime/permissions/permissions-context.tsx';
import { i18n } from './i18n.ts';
import { services } from './services.ts';
import { allowAll } from './permissions.ts';
import { crudRoutes } from './crud-routes.ts';
import { HomePage } from './home-page.tsx';
import { featureRoutes } from './feature-routes.tsx';

const CrudRoutePage = lazy(() => import('./crud-route-page.tsx'));
const theme = createTheme({});
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

function Shell() {
  const { t } = useTranslation();
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md">
          <Anchor component={Link} to="/" underline="never">
            <Title order={3}>{t('app.title')}</Title>
          </Anchor>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Suspense fallback={<Center py="xl"><Loader /></Center>}>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/home" element={<HomePage />} />
            {crudRoutes.map((route) => (
              <Route key={route.path} path={route.path} element={<CrudRoutePage model={route.model} />} />
            ))}
            {featureRoutes.map(({ path, component: Screen }) => (
              <Route key={path} path={path} element={<Screen />} />
            ))}
            <Route path="*" element={<Title order={3}>{t('app.notFound')}</Title>} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/** The minimal console: dark theme by default, Spanish with English fallback, every CRUD route. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <Notifications position="top-right" zIndex={5000} />
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <PermissionsProvider can={allowAll}>
            <RuntimeProvider services={services}>
              <BrowserRouter>
                <Shell />
              </BrowserRouter>
            </RuntimeProvider>
          </PermissionsProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
