/**
 * The manifest of a new entity with one "name" field, as `npm run new-entity` (scripts/new-entity.ts)
 * writes it and the schema studio's "add entity" starts from (src/studio/scaffold-manifest.ts):
 * names derived from the entity name the way the generator expects them (table `faq_items`, base
 * path `/api/faq-items`, route `/crud/faq-item`), so the generator accepts it as it is.
 */
export function newEntityManifest(name: string, options: { group: string; icon: string; tenant?: boolean }) {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  const kebab = words.replace(/ /g, '-');
  return {
    $schema: './manifest.schema.json',
    name,
    typeName: name.charAt(0).toUpperCase() + name.slice(1),
    label: `entity.${name}.label`,
    labelPlural: `entity.${name}.plural`,
    dbTable: `${words.replace(/ /g, '_')}s`,
    api: { basePath: `/api/${kebab}s` },
    route: { path: `/crud/${kebab}` },
    menu: { group: options.group, icon: options.icon, order: 50 },
    ...(options.tenant ? { scope: { tenant: true } } : {}),
    fields: [
      { name: 'name', type: 'string', label: `field.${name}.name`, validation: { required: true, maxLength: 200 }, searchable: true, sortable: true },
    ],
  };
}
