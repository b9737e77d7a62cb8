import { useEffect, useMemo } from 'react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { session, useSessionState } from '../session/session.ts';
import { i18n } from './i18n.ts';
import { AppRouter } from './router.tsx';
import { NotificationsHost } from './notifications-host.tsx';
import { consoleTheme } from './theme.ts';

// At start: drop an expired token, or reload the user behind a valid one (docs/product-rules.md#states).
void session.restore();

/**
 * The console: dark theme by default (switchable), Spanish with English fallback, every route.
 * What only signed-in screens use (entity clients, permissions, overrides) is provided by their
 * own chunk (signed-in-console.tsx), TanStack Query by another (with-query-client.tsx) that every screen but
 * the sign-in page is wrapped in (router.tsx), so the sign-in page loads as little as it can.
 * `location` fixes the route, for prerendering (src/prerender-sign-in.tsx).
 */
export function App({ location }: { location?: string } = {}) {
  const { darkMode } = useSessionState();
  const { t } = useTranslation();
  const theme = useMemo(() => consoleTheme({ close: t('crud.dismissDialog') }), [t]);
  useEffect(() => {
    document.documentElement.lang = i18n.language;
    const sync = (language: string) => {
      document.documentElement.lang = language;
    };
    i18n.on('languageChanged', sync);
    return () => i18n.off('languageChanged', sync);
  }, []);
  return (
    // The theme's CSS variables are a stylesheet written at build time (scripts/theme-variables-css.ts).
    <MantineProvider theme={theme} withCssVariables={false} forceColorScheme={darkMode ? 'dark' : 'light'}>
      <NotificationsHost />
      <I18nextProvider i18n={i18n}>
        <AppRouter location={location} />
      </I18nextProvider>
    </MantineProvider>
  );
}
