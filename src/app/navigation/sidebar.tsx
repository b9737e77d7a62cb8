import { ActionIcon, Box, NavLink, Stack, Text, Tooltip, UnstyledButton, Group, Kbd } from '@mantine/core';
import { IconHome, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { requireMenuIcon } from '../../home/menu-icons.ts';
import { isWithin, useVisibleMenu } from './use-visible-menu.ts';

export const SIDEBAR_WIDTH = { expanded: 232, collapsed: 60 } as const;

interface SidebarProps {
  collapsed: boolean;
  onToggle: () => void;
  onSearch: () => void;
}

/**
 * The console's sidebar (issue 27 item 5): the gallery's groups and pages, by the same rule
 * (useVisibleMenu), the current page marked; collapsed, icons with their names as tooltips. It
 * also opens the command palette (Ctrl+K), for those who do not know the shortcut.
 */
export function Sidebar({ collapsed, onToggle, onSearch }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const groups = useVisibleMenu();
  const link = (key: string, path: string, label: string, icon: React.ReactNode, active: boolean, testId: string) => {
    const item = (
      <NavLink
        key={key}
        component={Link}
        to={path}
        label={collapsed ? undefined : label}
        aria-label={collapsed ? label : undefined}
        leftSection={icon}
        active={active}
        aria-current={active ? 'page' : undefined}
        data-testid={testId}
        styles={{ root: { borderRadius: 'var(--mantine-radius-sm)' } }}
      />
    );
    return collapsed ? (
      <Tooltip key={key} label={label} position="right" openDelay={200}>
        {item}
      </Tooltip>
    ) : (
      item
    );
  };
  return (
    <Box
      component="nav"
      aria-label={t('nav.sidebar')}
      data-testid="sidebar"
      data-collapsed={collapsed}
      w={collapsed ? SIDEBAR_WIDTH.collapsed : SIDEBAR_WIDTH.expanded}
      visibleFrom="sm"
      style={{ flexShrink: 0, position: 'sticky', top: 72, alignSelf: 'flex-start', maxHeight: 'calc(100dvh - 88px)', overflowY: 'auto' }}
    >
      <Stack gap={2}>
        <Group justify={collapsed ? 'center' : 'space-between'} wrap="nowrap" mb={4}>
          {!collapsed && (
            <UnstyledButton onClick={onSearch} title={t('palette.open')} data-testid="sidebar-search" style={{ flex: 1 }}>
              <Group gap={6} wrap="nowrap" px={8} py={4} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
                <IconSearch size={16} />
                <Text size="sm" style={{ flex: 1 }}>
                  {t('palette.search')}
                </Text>
                <Kbd size="xs">Ctrl K</Kbd>
              </Group>
            </UnstyledButton>
          )}
          <Tooltip label={collapsed ? t('nav.expand') : t('nav.collapse')} position="right" openDelay={200}>
            <ActionIcon variant="subtle" color="gray" onClick={onToggle} aria-label={collapsed ? t('nav.expand') : t('nav.collapse')} aria-expanded={!collapsed} data-testid="sidebar-toggle">
              {collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
            </ActionIcon>
          </Tooltip>
        </Group>
        {collapsed && (
          <Tooltip label={t('palette.open')} position="right" openDelay={200}>
            <ActionIcon variant="subtle" color="gray" mx="auto" onClick={onSearch} aria-label={t('palette.open')} data-testid="sidebar-search">
              <IconSearch size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        {link('home', '/', t('app.home'), <IconHome size={18} />, pathname === '/' || pathname === '/home', 'sidebar-home')}
        {groups.map((group) => (
          <Stack key={group.group} gap={2} mt="xs" role="group" aria-label={t(group.label)} data-testid={`sidebar-group-${group.group}`}>
            {!collapsed && (
              <Text size="xs" fw={700} tt="uppercase" c="dimmed" px={8} aria-hidden>
                {t(group.label)}
              </Text>
            )}
            {group.tiles.map((tile) => {
              const Icon = requireMenuIcon(tile.icon);
              return link(tile.key, tile.path, t(tile.label), <Icon size={18} />, isWithin(pathname, tile.path), `sidebar-item-${tile.entity ?? tile.path.slice(1)}`);
            })}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
