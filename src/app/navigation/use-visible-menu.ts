import { useMemo } from 'react';
import { useRuntime } from '../../../runtime/context/runtime-context.tsx';
import { useSessionCan } from '../../session/session.ts';
import { useMenuGroups } from '../live-model.ts';
import { featureTiles } from '../../home/feature-tiles.ts';
import { visibleMenu, type GalleryGroup } from '../../home/visible-menu.ts';

/** The groups and pages the signed-in user may open: one list for the gallery, the sidebar and the palette. */
export function useVisibleMenu(): GalleryGroup[] {
  const can = useSessionCan();
  const { entities } = useRuntime();
  const menuGroups = useMenuGroups();
  return useMemo(() => visibleMenu(menuGroups, can, entities, featureTiles), [can, entities, menuGroups]);
}

/** Whether `pathname` is within a menu page (its list, or a page under it). */
export function isWithin(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`);
}
