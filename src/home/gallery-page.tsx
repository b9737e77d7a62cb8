import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Card, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useRuntime } from '../../runtime/context/runtime-context.tsx';
import { loadCrudRoutePage } from '../app/load-crud-route-page.ts';
import { prefetchCrudRoute } from '../app/prefetch-crud-route.ts';
import { useMenuGroups } from '../app/live-model.ts';
import { useSessionCan, useSessionState } from '../session/session.ts';
import { requireMenuIcon } from './menu-icons.ts';
import { visibleMenu, type GalleryTile } from './visible-menu.ts';
import { EntityErrorBoundary } from '../../runtime/errors/entity-error-boundary.tsx';
import { featureTiles } from './feature-tiles.ts';
import { GettingStartedChecklist } from './getting-started-checklist.tsx';

const HOVER_INTENT_MS = 80;

/** Browsers without requestIdleCallback (Safari) preload after this delay instead. */
const IDLE_FALLBACK_MS = 300;

const GROUP_COLORS: Record<string, string> = { home: 'blue', bot: 'violet', knowledge: 'teal', chat: 'orange', admin: 'red' };

/**
 * docs/product-rules.md#screens / and /home: a getting-started checklist on a fresh install, then the groups as cards the
 * user may open, in the order of that path (knowledge, bot, chat, administration).
 */
export default function GalleryPage() {
  const { t } = useTranslation();
  const can = useSessionCan();
  const { user } = useSessionState();
  const queryClient = useQueryClient();
  const services = useRuntime();
  const menuGroups = useMenuGroups();
  const groups = useMemo(() => visibleMenu(menuGroups, can, services.entities, featureTiles), [can, services.entities, menuGroups]);
  // Most cards lead to a list: its code loads once the gallery is idle, before any click.
  useEffect(() => {
    if (!('requestIdleCallback' in window)) {
      const timer = setTimeout(() => void loadCrudRoutePage(), IDLE_FALLBACK_MS);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(() => void loadCrudRoutePage());
    return () => window.cancelIdleCallback(handle);
  }, []);
  // Pointing at a card is a strong hint of the next page: fetch its code and first rows meanwhile.
  const prefetch = useCallback(
    (entity: string, path: string) => {
      const model = services.entities[entity];
      if (model && model.route?.path === path) prefetchCrudRoute(queryClient, services, can, model);
    },
    [queryClient, services, can],
  );
  // A pointer that rests on a card, not one sweeping across the grid, fetches that card's list.
  const intent = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hover = (entity: string, path: string) => {
    clearTimeout(intent.current);
    intent.current = setTimeout(() => prefetch(entity, path), HOVER_INTENT_MS);
  };
  const leave = () => clearTimeout(intent.current);
  useEffect(() => () => clearTimeout(intent.current), []);
  return (
    <Stack gap="xl" data-testid="gallery">
      <div>
        <Title order={2}>{t('menu.group.home')}</Title>
        {user && (
          <Text c="dimmed">
            {t('home.welcome', { name: user.name || user.username })}
          </Text>
        )}
      </div>
      <GettingStartedChecklist can={can} />
      {groups.length === 0 && <Text>{t('home.empty')}</Text>}
      {groups.map((group) => (
        <Stack key={group.group} gap="sm" data-testid={`menu-group-${group.group}`}>
          <Title order={3} size="h4" tt="uppercase" c="dimmed">
            {t(group.label)}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4, lg: 5 }} spacing="md">
            {group.tiles.map((item) => (
              <EntityErrorBoundary key={item.key} entity={item.entity ?? item.path.slice(1)} compact>
                <GalleryCard
                  item={item}
                  color={GROUP_COLORS[group.group] ?? 'blue'}
                  onHover={hover}
                  onLeave={leave}
                  onFocus={prefetch}
                />
              </EntityErrorBoundary>
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

interface GalleryCardProps {
  item: GalleryTile;
  color: string;
  onHover: (entity: string, path: string) => void;
  onLeave: () => void;
  onFocus: (entity: string, path: string) => void;
}

/** One tile; its own component so a tile that cannot render (an unknown icon) fails alone. */
function GalleryCard({ item, color, onHover, onLeave, onFocus }: GalleryCardProps) {
  const { t } = useTranslation();
  const Icon = requireMenuIcon(item.icon);
  const entity = item.entity;
  return (
    <UnstyledButton
      component={Link}
      to={item.path}
      data-testid={`menu-item-${entity ?? item.path.slice(1)}`}
      onPointerEnter={entity ? () => onHover(entity, item.path) : undefined}
      onPointerLeave={entity ? onLeave : undefined}
      onFocus={entity ? () => onFocus(entity, item.path) : undefined}
    >
      <Card withBorder shadow="sm" radius="md" padding="lg" h="100%" className="forja-gallery-card">
        {/* The icon above the label: beside it, a long one-word label ("Conversaciones" in a
            five-column row) ran out of the card and was cut off. */}
        <Stack gap="sm" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light" color={color}>
            <Icon size={26} />
          </ThemeIcon>
          <Text fw={600} style={{ overflowWrap: 'break-word' }} maw="100%">
            {t(item.label)}
          </Text>
        </Stack>
      </Card>
    </UnstyledButton>
  );
}
