type Schema = Record<string, unknown>;

/**
 * The manifest meta-schema with pickers where free text would only invite typos: a reference's
 * entity is one of the project's entities, and an icon (menu, row actions) one the console's build
 * carries (src/generated/icons.ts: a studio save is applied live, and an icon the build lacks
 * would wait for the next build). The forms render an `enum` as a select; the generator still
 * checks every value, so a manifest written by hand with another Tabler icon stays valid.
 */
export function withPickers<T extends Schema>(schema: T, choices: { entities: readonly string[]; icons: readonly string[] }): T {
  const copy = structuredClone(schema) as Schema;
  const defs = copy.$defs as Record<string, Schema> | undefined;
  if (defs?.iconName) defs.iconName = { ...defs.iconName, enum: [...choices.icons].sort() };
  const entities = [...new Set(choices.entities)].sort();
  // The field definition, both where a form starts from it and where fields nest (objectFields).
  for (const field of [copy, defs?.field]) {
    const ref = (field?.properties as Record<string, Schema> | undefined)?.ref;
    const entity = (ref?.properties as Record<string, Schema> | undefined)?.entity;
    if (ref && entity) (ref.properties as Record<string, Schema>).entity = { ...entity, enum: entities };
  }
  return copy as T;
}
