import type { MenuGroup } from '../generated/menu.ts';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import { crudRouteAccess } from '../app/crud-route-access.ts';

/** One gallery tile: an entity's list or a hand-written screen. */
export interface GalleryTile {
  key: string;
  label: string;
  icon: string;
  path: string;
  /** The entity whose list the tile opens (its page and first rows are prefetched on intent). */
  entity: string | null;
  /** Any one of these shows the tile. */
  permissions: readonly string[];
}

export interface GalleryGroup {
  group: MenuGroup['group'];
  label: string;
  tiles: GalleryTile[];
}

type Models = Readonly<Record<string, Pick<ClientEntityModel, 'permissions' | 'route'>>>;

/**
 * The gallery (spec §2): a tile for every entity the user may view — the rule the route and the
 * API apply (view, :manage or the "own" variant) — plus the hand-written screens' tiles, each in
 * its group; a group shows only when it keeps a tile.
 */
export function visibleMenu(groups: readonly MenuGroup[], can: (permission: string) => boolean, entities: Models, features: ReadonlyArray<GalleryTile & { group: MenuGroup['group'] }> = []): GalleryGroup[] {
  return groups
    .map((group) => {
      const tiles: GalleryTile[] = group.items.map((item) => {
        const model = entities[item.entity];
        if (!model) throw new Error(`Menu item ${item.path} names unknown entity "${item.entity}"`);
        return { key: item.path, label: item.label, icon: item.icon, path: item.path, entity: item.entity, permissions: crudRouteAccess(model) };
      });
      tiles.push(...features.filter((feature) => feature.group === group.group));
      return { group: group.group, label: group.label, tiles: tiles.filter((tile) => tile.permissions.some(can)) };
    })
    .filter((group) => group.tiles.length > 0);
}
