import { useEffect, useMemo } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RuntimeProvider } from '../../runtime/context/runtime-context.tsx';
import { PermissionsProvider } from '../../runtime/permissions/permissions-context.tsx';
import { session, useSessionState } from '../session/session.ts';
import { onSessionEvent } from '../session/session-events.ts';
import { i18n } from './i18n.ts';
import { services } from './services.ts';
import { canFor } from './permissions.ts';
import { AppRouter } from './router.tsx';

/** Spec §9: notifications close after 3000 ms. */
export const NOTIFICATION_MS = 3000;

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

// At start: drop an expired token, or reload the user behind a valid one (spec §4).
void session.restore();
// Whatever one user loaded must not leak into the next session.
onSessionEvent((event) => {
  if (event === 'logout' || event === 'login-success') queryClient.clear();
});

/** The console: dark theme by default (switchable), Spanish with English fallback, every route. */
export function App() {
  const { darkMode, user } = useSessionState();
  const can = useMemo(() => canFor(user), [user]);
  useEffect(() => {
    document.documentElement.lang = i18n.language;
    const sync = (language: string) => {
      document.documentElement.lang = language;
    };
    i18n.on('languageChanged', sync);
    return () => i18n.off('languageChanged', sync);
  }, []);
  return (
    <MantineProvider theme={theme} forceColorScheme={darkMode ? 'dark' : 'light'}>
      <Notifications position="top-right" zIndex={5000} autoClose={NOTIFICATION_MS} />
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <PermissionsProvider can={can}>
            <RuntimeProvider services={services}>
              <AppRouter />
            </RuntimeProvider>
          </PermissionsProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
