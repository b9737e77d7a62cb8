import { lazy, Suspense } from 'react';
import { ActionIcon, Button } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { sessionStore, useIsAuthenticated, useSessionState } from '../../session/session.ts';
import { setLanguage, SUPPORTED_LANGUAGES } from '../language.ts';

/**
 * ES / EN as two toggle buttons (aria-pressed) in a labelled group: Mantine's SegmentedControl
 * drew the same with a sliding indicator that cost the sign-in page about 3 KB compressed.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div role="group" aria-label={t('app.language')} data-testid="language-switch">
      <Button.Group>
        {SUPPORTED_LANGUAGES.map((language) => (
          <Button
            key={language}
            size="xs"
            variant={language === current ? 'filled' : 'default'}
            aria-pressed={language === current}
            onClick={() => language !== current && setLanguage(language)}
          >
            {language.toUpperCase()}
          </Button>
        ))}
      </Button.Group>
    </div>
  );
}

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { darkMode } = useSessionState();
  const label = t(darkMode ? 'app.theme.light' : 'app.theme.dark');
  return (
    // A native title, not Mantine's Tooltip: the tooltip's positioning library is 20 KB the
    // sign-in page would otherwise load for this one hint.
    <ActionIcon variant="default" size="lg" aria-label={label} title={label} onClick={() => sessionStore.setDarkMode(!darkMode)} data-testid="theme-switch">
      {darkMode ? <IconSun size={18} /> : <IconMoon size={18} />}
    </ActionIcon>
  );
}

// The menu (and the dropdown positioning it brings) loads once someone is signed in.
const UserMenuButton = lazy(() => import('./user-menu.tsx'));

export function UserMenu() {
  const authenticated = useIsAuthenticated();
  if (!authenticated) return null;
  return (
    <Suspense fallback={null}>
      <UserMenuButton />
    </Suspense>
  );
}
