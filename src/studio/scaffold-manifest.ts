import { newEntityManifest } from '../../contract/model/new-entity-manifest.ts';
import type { Manifest, StudioTexts } from './studio-api.ts';

export interface NewEntity {
  name: string;
  labels: { es: string; en: string; esPlural: string; enPlural: string };
  group: string;
  icon: string;
  tenant: boolean;
}

/**
 * A new entity's manifest (contract/model/new-entity-manifest.ts, as `npm run new-entity` writes it)
 * and the texts of its locale keys.
 */
export function scaffoldManifest(entity: NewEntity): { manifest: Manifest; texts: StudioTexts } {
  const { name } = entity;
  const manifest = newEntityManifest(name, { group: entity.group, icon: entity.icon, tenant: entity.tenant }) as Manifest;
  const plural = (text: string, fallback: string) => text.trim() || fallback;
  const texts: StudioTexts = {
    [`entity.${name}.label`]: { es: entity.labels.es, en: entity.labels.en },
    [`entity.${name}.plural`]: { es: plural(entity.labels.esPlural, entity.labels.es), en: plural(entity.labels.enPlural, entity.labels.en) },
    [`field.${name}.name`]: { es: 'Nombre', en: 'Name' },
  };
  return { manifest, texts };
}
