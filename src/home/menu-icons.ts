import { IconChartBar, type Icon } from '@tabler/icons-react';
import { manifestIcons } from '../generated/icons.ts';

/**
 * Gallery icons by name: the manifests' menu icons (generated: the generator accepts any Tabler
 * icon and imports exactly the ones in use) plus those of the hand-written tiles (feature-tiles.ts).
 */
export const MENU_ICONS: Readonly<Record<string, Icon>> = {
  ...manifestIcons,
  'chart-bar': IconChartBar,
};

export function requireMenuIcon(name: string): Icon {
  const icon = MENU_ICONS[name];
  if (!icon) throw new Error(`Unknown menu icon "${name}": a manifest icon is validated by \`npm run generate\` (regenerate), a feature tile's is added to MENU_ICONS in src/home/menu-icons.ts`);
  return icon;
}
