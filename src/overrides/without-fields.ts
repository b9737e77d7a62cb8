import type { FormSchemas } from '../../runtime/form/prepare-form-schemas.ts';

/** The form's schemas without these top-level fields (an override shows them its own way, or not at all). */
export function withoutFields(schemas: FormSchemas, fields: readonly string[]): FormSchemas {
  const schema = structuredClone(schemas.schema) as Record<string, any>;
  const uiSchema = structuredClone(schemas.uiSchema) as Record<string, any>;
  for (const field of fields) {
    if (schema.properties) delete schema.properties[field];
    if (Array.isArray(schema.required)) schema.required = schema.required.filter((name: string) => name !== field);
    delete uiSchema[field];
    if (Array.isArray(uiSchema['ui:order'])) uiSchema['ui:order'] = uiSchema['ui:order'].filter((name: string) => name !== field);
  }
  return { ...schemas, schema, uiSchema } as FormSchemas;
}
