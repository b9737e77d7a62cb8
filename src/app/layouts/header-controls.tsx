import { ActionIcon, Avatar, Menu, SegmentedControl, Tooltip, UnstyledButton } from '@mantine/core';
import { IconLogout, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { session, sessionStore, useIsAuthenticated, useSessionState } from '../../session/session.ts';
import { avatarUrl } from '../../session/avatar-url.ts';
import { setLanguage, SUPPORTED_LANGUAGES } from '../language.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('app.language')}
      value={i18n.resolvedLanguage ?? i18n.language}
      onChange={(language) => setLanguage(language)}
      data={SUPPORTED_LANGUAGES.map((language) => ({ value: language, label: language.toUpperCase() }))}
      data-testid="language-switch"
    />
  );
}

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { darkMode } = useSessionState();
  const label = t(darkMode ? 'app.theme.light' : 'app.theme.dark');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => sessionStore.setDarkMode(!darkMode)} data-testid="theme-switch">
        {darkMode ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const authenticated = useIsAuthenticated();
  const { user } = useSessionState();
  if (!authenticated) return null;
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={t('app.userMenu')} data-testid="user-menu">
          <Avatar src={avatarUrl(user)} radius="xl" size={34} alt={user?.username ?? ''}>
            <IconUser size={18} />
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user && <Menu.Label>{user.username}</Menu.Label>}
        <Menu.Item leftSection={<IconUser size={16} />} onClick={() => navigate('/profile')}>
          {t('app.profile')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => {
            session.signOut();
            navigate('/login');
          }}
        >
          {t('app.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
