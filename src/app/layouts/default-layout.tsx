import { Anchor, Box, Group, Title } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LanguageSwitch, ThemeSwitch, UserMenu } from './header-controls.tsx';

const HEADER_HEIGHT = 56;
// Above page content and Mantine's sticky table headers, below its dropdowns, dialogs and toasts.
const HEADER_STYLE = { zIndex: 150, borderBottom: '1px solid var(--mantine-color-default-border)' } as const;

/**
 * The app shell: a sticky header and the page below. Plain boxes rather than Mantine's AppShell,
 * which is built for navbars, asides and breakpoints this console does not use, and was the
 * largest single piece of UI kit on the sign-in page. Header: logo, language and theme switches,
 * user menu.
 */
export function DefaultLayout() {
  const { t } = useTranslation();
  return (
    <>
      <Box component="header" h={HEADER_HEIGHT} pos="sticky" top={0} bg="var(--mantine-color-body)" style={HEADER_STYLE}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Group gap={8} wrap="nowrap">
              <IconMessageChatbot size={26} />
              {/* The one h1 every screen has (the product's name); each page's own title is an h2 under it. */}
              <Title order={1} size="h3">
                {t('app.title')}
              </Title>
            </Group>
          </Anchor>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <ThemeSwitch />
            <UserMenu />
          </Group>
        </Group>
      </Box>
      <Box component="main" p="md">
        {/* Each screen brings its own Suspense boundary and loader (router.tsx). */}
        <Outlet />
      </Box>
    </>
  );
}
