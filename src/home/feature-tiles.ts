import { permissionsGranting } from '../../shared/permissions/entity-access.ts';
import { entities } from '../generated/entities.ts';
import type { GalleryTile } from './visible-menu.ts';
import type { MenuGroup } from '../generated/menu.ts';

/** Gallery tiles of hand-written screens, with the same access rule as their routes (feature-routes.tsx). */
export const featureTiles: ReadonlyArray<GalleryTile & { group: MenuGroup['group'] }> = [
  { key: '/analytics', group: 'bot', label: 'menu.analytics', icon: 'chart-bar', path: '/analytics', entity: null, permissions: permissionsGranting(entities.bottrace.permissions, 'view') },
];
