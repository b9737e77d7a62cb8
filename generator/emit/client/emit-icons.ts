import type { EntityModelMap } from '../../../contract/model/entity-model.ts';
import { GENERATED_HEADER } from '../emitted-files.ts';
import { readIconNames } from '../../load/read-icon-names.ts';

/**
 * The icons the manifests name (menus and row actions) as Tabler components, imported one by one:
 * the bundle holds exactly these, and a manifest may name any Tabler icon without a hand-kept table.
 */
export function emitIcons(models: EntityModelMap): string {
  const components = readIconNames();
  const names = [...new Set(Object.values(models).flatMap((m) => [
    ...(m.menu ? [m.menu.icon] : []),
    ...m.rowActions.map((action) => action.icon),
  ]))].sort();
  const entries = names.map((name) => {
    const component = components.get(name);
    if (!component) throw new Error(`icon "${name}" passed validation but is not a Tabler icon`);
    return [name, component] as const;
  });
  const imports = [...new Set(entries.map(([, component]) => component))].sort();
  return `${GENERATED_HEADER}import { ${[...imports, 'type Icon'].join(', ')} } from '@tabler/icons-react';

/** Icons named by the manifests (menu.icon, rowActions[].icon), by their manifest name. */
export const manifestIcons: Readonly<Record<string, Icon>> = {
${entries.map(([name, component]) => `  ${JSON.stringify(name)}: ${component},`).join('\n')}
};
`;
}
