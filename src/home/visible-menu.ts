import type { MenuGroup } from '../generated/menu.ts';

/**
 * Spec §2 Menu gallery: a group shows only with its own permission (Admin: user:manage) and only
 * the items whose permission the user holds; a group left without items is hidden.
 */
export function visibleMenu(groups: readonly MenuGroup[], can: (permission: string) => boolean): MenuGroup[] {
  return groups
    .filter((group) => group.permission === null || can(group.permission))
    .map((group) => ({ ...group, items: group.items.filter((item) => can(item.permission)) }))
    .filter((group) => group.items.length > 0);
}
