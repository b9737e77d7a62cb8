import type { ComponentType } from 'react';

type Icon = ComponentType<{ size?: number | string }>;

/** Icons of manifest row actions by their manifest name (src/generated/icons.ts, given by the app). */
export function requireRowActionIcon(icons: Readonly<Record<string, Icon>>, name: string): Icon {
  const icon = icons[name];
  if (!icon) throw new Error(`Row action icon "${name}" is not in the generated icon table: run \`npm run generate\``);
  return icon;
}
