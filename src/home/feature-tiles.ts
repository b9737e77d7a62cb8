import { featureRoutes } from '../app/feature-routes.tsx';
import type { GalleryTile } from './visible-menu.ts';
import type { MenuGroup } from '../generated/menu.ts';

/** The access rule of a hand-written route: a tile shows exactly when its page opens. */
function routeAccess(path: string): readonly string[] {
  const route = featureRoutes.find((candidate) => candidate.path === path);
  if (!route?.permissions) throw new Error(`Gallery tile ${path} has no guarded route in src/app/feature-routes.tsx`);
  return route.permissions;
}

/** Gallery tiles of hand-written screens. */
export const featureTiles: ReadonlyArray<GalleryTile & { group: MenuGroup['group'] }> = [
  { key: '/analytics', group: 'bot', label: 'menu.analytics', icon: 'chart-bar', path: '/analytics', entity: null, permissions: routeAccess('/analytics') },
];
