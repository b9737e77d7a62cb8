import { memo, useMemo } from 'react';
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
// Templates only, as the CRUD forms (runtime/form/form-registry.ts): the theme's widget index pulls dayjs through an ESM-incompatible path.
import MantineTemplates from '@rjsf/mantine/lib/templates/index.js';
import { acceptAllValidator } from '../../runtime/form/form-validator.ts';
import { formTemplates, formWidgets } from '../../runtime/form/form-registry.ts';

export interface ManifestFormProps {
  /** A part of the manifest meta-schema (the field definition, or the root without `fields`), with its $defs. */
  schema: RJSFSchema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** The generator's messages at the properties they name (issue-errors.ts). */
  errors: ErrorSchema;
  idPrefix: string;
}

const BaseSelect = formWidgets.SelectWidget!;
/** RJSF's chooser between oneOf/anyOf variants comes with its label hidden, so it would have no accessible name: shown here. */
function VariantAwareSelect(props: WidgetProps) {
  const variant = /__(one|any)of_select$/.test(props.id);
  return <BaseSelect {...props} hideLabel={variant ? false : props.hideLabel} label={variant ? `${props.label || props.name} (variant)` : props.label} />;
}
const STUDIO_WIDGETS: RegistryWidgetsType = { ...formWidgets, SelectWidget: VariantAwareSelect, select: VariantAwareSelect };

/**
 * A form generated from the manifest meta-schema (manifests/manifest.schema.json), so a property
 * added to the meta-schema appears here with no studio code. It checks nothing itself: the
 * generator does, on the server, and its messages come back as `errors` (the meta-schema is
 * not compiled in the browser, which the CSP would refuse).
 */
export const ManifestForm = memo(function ManifestForm({ schema, value, onChange, errors, idPrefix }: ManifestFormProps) {
  // The CRUD forms' text input (always controlled: a property set later, such as a field's renamedFrom, does not flip it).
  const templates = useMemo(() => ({ ...MantineTemplates, BaseInputTemplate: formTemplates.BaseInputTemplate!, ButtonTemplates: { ...MantineTemplates.ButtonTemplates, SubmitButton: () => null } }), []);
  return (
    <Form
      schema={schema}
      formData={value}
      validator={acceptAllValidator}
      templates={templates}
      widgets={STUDIO_WIDGETS}
      idPrefix={idPrefix}
      extraErrors={errors}
      showErrorList={false}
      noHtml5Validate
      liveValidate={false}
      // Defaults of the meta-schema are what the generator assumes anyway: not written into the manifest.
      experimental_defaultFormStateBehavior={{ emptyObjectFields: 'skipDefaults', arrayMinItems: { populate: 'never' } }}
      onChange={(event) => onChange(withoutNewEmptyObjects((event.formData ?? {}) as Record<string, unknown>, value))}
    />
  );
});

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * RJSF gives every optional object property it renders an empty object (`visibleWhen: {}`,
 * `ref: {}`, `valueLabels: {}`), which the generator rightly refuses as incomplete: an empty
 * object the manifest did not have before the edit is dropped, so editing one property of a field
 * changes only that property.
 */
export function withoutNewEmptyObjects(next: Record<string, unknown>, before: unknown): Record<string, unknown> {
  const previous = isObject(before) ? before : {};
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(next)) {
    if (item === undefined) continue;
    if (isObject(item)) {
      const pruned = withoutNewEmptyObjects(item, previous[key]);
      if (Object.keys(pruned).length === 0 && !isObject(previous[key])) continue;
      out[key] = pruned;
    } else out[key] = item;
  }
  return out;
}
