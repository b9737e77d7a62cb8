import {
  IconAddressBook,
  IconBooks,
  IconBuilding,
  IconChartBar,
  IconFileText,
  IconHome,
  IconKey,
  IconListCheck,
  IconMessages,
  IconRobot,
  IconSettings,
  IconShieldLock,
  IconTimeline,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

/**
 * Manifest icon names (menu.icon) to Tabler components: one explicit registry, so a bundle holds
 * only the icons in use and a manifest naming an unknown icon fails loudly instead of rendering
 * nothing. Add the icon here when a manifest starts using a new name.
 */
export const MENU_ICONS: Readonly<Record<string, Icon>> = {
  'address-book': IconAddressBook,
  books: IconBooks,
  building: IconBuilding,
  'chart-bar': IconChartBar,
  'file-text': IconFileText,
  home: IconHome,
  key: IconKey,
  'list-check': IconListCheck,
  messages: IconMessages,
  robot: IconRobot,
  settings: IconSettings,
  'shield-lock': IconShieldLock,
  timeline: IconTimeline,
  users: IconUsers,
};

export function requireMenuIcon(name: string): Icon {
  const icon = MENU_ICONS[name];
  if (!icon) throw new Error(`Unknown menu icon "${name}": add it to MENU_ICONS in src/home/menu-icons.ts`);
  return icon;
}
