import type { Manifest, StudioTexts } from './studio-api.ts';

export interface NewEntity {
  name: string;
  labels: { es: string; en: string; esPlural: string; enPlural: string };
  group: string;
  icon: string;
  tenant: boolean;
}

/**
 * A new entity's manifest with one "name" field and the texts of its locale keys: the same shape
 * as `npm run new-entity` (scripts/new-entity.ts) writes, so the generator accepts it as it is.
 */
export function scaffoldManifest(entity: NewEntity): { manifest: Manifest; texts: StudioTexts } {
  const { name } = entity;
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  const kebab = words.replace(/ /g, '-');
  const manifest: Manifest = {
    $schema: './manifest.schema.json',
    name,
    typeName: name.charAt(0).toUpperCase() + name.slice(1),
    label: `entity.${name}.label`,
    labelPlural: `entity.${name}.plural`,
    dbTable: `${words.replace(/ /g, '_')}s`,
    api: { basePath: `/api/${kebab}s` },
    route: { path: `/crud/${kebab}` },
    menu: { group: entity.group, icon: entity.icon, order: 50 },
    ...(entity.tenant ? { scope: { tenant: true } } : {}),
    fields: [
      { name: 'name', type: 'string', label: `field.${name}.name`, validation: { required: true, maxLength: 200 }, searchable: true, sortable: true },
    ],
  };
  const plural = (text: string, fallback: string) => text.trim() || fallback;
  const texts: StudioTexts = {
    [`entity.${name}.label`]: { es: entity.labels.es, en: entity.labels.en },
    [`entity.${name}.plural`]: { es: plural(entity.labels.esPlural, entity.labels.es), en: plural(entity.labels.enPlural, entity.labels.en) },
    [`field.${name}.name`]: { es: 'Nombre', en: 'Name' },
  };
  return { manifest, texts };
}
