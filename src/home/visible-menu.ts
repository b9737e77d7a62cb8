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

/**
 * A group some permission gates as a whole, beyond its tiles' own rules (issue 27 item 3): the
 * administration group is for whoever administers users; someone who may only see their own API
 * keys reaches them from the user menu instead.
 */
export const GROUP_GATES: Readonly<Partial<Record<MenuGroup['group'], string>>> = { admin: 'user:manage' };

type Models = Readonly<Record<string, Pick<ClientEntityModel, 'permissions' | 'route'>>>;

/**
 * The gallery (docs/product-rules.md#screens): a tile for every entity the user may view — the rule the route and the
 * API apply (view, :manage or the "own" variant) — plus the hand-written screens' tiles, each in
 * its group; a group shows only when it keeps a tile and its gate (GROUP_GATES) is held. The
 * gallery, the sidebar and the command palette all read this one list.
 */
export function visibleMenu(groups: readonly MenuGroup[], can: (permission: string) => boolean, entities: Models, features: ReadonlyArray<GalleryTile & { group: MenuGroup['group'] }> = []): GalleryGroup[] {
  return groups
    .filter((group) => {
      const gate = GROUP_GATES[group.group];
      return gate === undefined || can(gate);
    })
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
