import { Box, Group } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { Outlet } from 'react-router-dom';
import { Breadcrumbs } from './breadcrumbs.tsx';
import CommandPalette from './command-palette.tsx';
import { palette } from './palette-store.ts';
import { Sidebar } from './sidebar.tsx';
import WithQueryClient from '../with-query-client.tsx';

/** Where the sidebar's state is kept: collapsed stays collapsed across pages and visits. */
const COLLAPSED_KEY = 'forja.sidebar.collapsed';

/**
 * The signed-in console's frame (issue 27 item 5): the sidebar beside every page, the breadcrumb
 * trail above it, and the command palette (Ctrl+K). Public screens and the chat layout have none.
 */
export function ConsoleFrame() {
  const [collapsed, setCollapsed] = useLocalStorage({ key: COLLAPSED_KEY, defaultValue: false, getInitialValueInEffect: false });
  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <Sidebar collapsed={collapsed} onToggle={() => setCollapsed(!collapsed)} onSearch={() => palette.open()} />
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Breadcrumbs />
        <Outlet />
      </Box>
      {/* The console's one query client (each screen gets it the same way, router.tsx). */}
      <WithQueryClient>
        <CommandPalette />
      </WithQueryClient>
    </Group>
  );
}
