import type { FormSchemas } from '../../../runtime/form/prepare-form-schemas.ts';

type Json = Record<string, unknown>;

/** Fields of the knowledge source that the generic EntityForm renders (the rest is the tabbed editor). */
export const HEADER_FIELDS = ['name', 'type', 'language', 'file', 'link', 'user'] as const;

/**
 * The generated knowledge source schemas cut down to the header fields: same widgets, hints,
 * visibleWhen (file only for type file, link only for type link) and conditional requirements,
 * without the tabs and the text/chunk fields the override edits itself.
 */
export function headerSchemas(source: FormSchemas): FormSchemas {
  const keep = new Set<string>(HEADER_FIELDS);
  const schema = structuredClone(source.schema);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  schema.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => keep.has(name)));
  schema.required = ((schema.required as string[] | undefined) ?? []).filter((name) => keep.has(name));
  if (Array.isArray(schema.allOf)) {
    schema.allOf = (schema.allOf as Json[]).filter((rule) => {
      const required = ((rule.then as Json | undefined)?.required as string[] | undefined) ?? [];
      return required.every((name) => keep.has(name));
    });
  }
  const uiSchema = structuredClone(source.uiSchema);
  for (const name of Object.keys(uiSchema)) if (!name.startsWith('ui:') && !keep.has(name)) delete uiSchema[name];
  uiSchema['ui:order'] = [...HEADER_FIELDS.filter((name) => name in (schema.properties as Json)), '*'];
  uiSchema['ui:options'] = { ...(uiSchema['ui:options'] as Json | undefined), tabs: [], menus: [] };
  return { ...source, schema, uiSchema };
}
