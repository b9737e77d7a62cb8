import { useMemo } from 'react';
import { EntityForm, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';

/** Fields only the create form shows. */
export const CREATE_ONLY_FIELDS = ['password'] as const;
/** Never in the admin form: the avatar is the user's own, changed from the profile card. */
export const HIDDEN_FIELDS = ['avatar'] as const;

/** Drops fields from generated schemas (properties, required list and UI schema). */
export function withoutSchemaFields(schemas: EntityFormProps['schemas'], names: readonly string[]): EntityFormProps['schemas'] {
  const schema = structuredClone(schemas.schema);
  const uiSchema = structuredClone(schemas.uiSchema);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of names) {
    delete properties[name];
    delete uiSchema[name];
  }
  if (Array.isArray(schema.required)) schema.required = (schema.required as string[]).filter((name) => !names.includes(name));
  const order = uiSchema['ui:order'];
  if (Array.isArray(order)) uiSchema['ui:order'] = order.filter((name) => !names.includes(name as string));
  return { ...schemas, schema, uiSchema };
}

/**
 * docs/product-rules.md#screens/#entities User form: the generated form with the password on create only (a password is changed
 * through the row action, never by editing the user).
 */
export function UserForm(props: EntityFormProps) {
  const { schemas, operation } = props;
  const adjusted = useMemo(() => withoutSchemaFields(schemas, operation === 'create' ? HIDDEN_FIELDS : [...HIDDEN_FIELDS, ...CREATE_ONLY_FIELDS]), [schemas, operation]);
  return <EntityForm {...props} schemas={adjusted} />;
}
