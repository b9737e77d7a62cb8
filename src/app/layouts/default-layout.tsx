import { Anchor, AppShell, Group, Title } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LanguageSwitch, ThemeSwitch, UserMenu } from './header-controls.tsx';

/** The app shell: header with logo, language and theme switches, user menu; the page below. */
export function DefaultLayout() {
  const { t } = useTranslation();
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Group gap={8} wrap="nowrap">
              <IconMessageChatbot size={26} />
              <Title order={3}>{t('app.title')}</Title>
            </Group>
          </Anchor>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <ThemeSwitch />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        {/* Each screen brings its own Suspense boundary and loader (router.tsx). */}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
