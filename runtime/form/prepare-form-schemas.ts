import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { ClientEntityModel, FieldModel } from '../model/client-entity-model.ts';
import type { Can } from '../permissions/permissions-context.tsx';
import { uiOptionsOf } from './visibility.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';

type Json = Record<string, unknown>;
type Translate = (key: string) => string;

export interface FormSchemas {
  schema: Json;
  uiSchema: Json;
  /** The generator's precompiled validators of the full schema (src/generated/validators). */
  validateFns: ValidatorFunctions;
}

export interface PrepareOptions {
  model: ClientEntityModel;
  translate: Translate;
  can: Can;
  /** Edit forms drop "required on create" rules (a user's password). */
  mode: 'create' | 'edit' | 'readonly';
}

/**
 * Turns the generated schemas into what RJSF renders: titles, descriptions and help translated
 * (they are i18n keys), fields the user lacks the permission for removed, enum option labels and
 * custom fields attached to the UI schema. Pure and memoised by the caller (per language/mode).
 */
export function prepareFormSchemas(source: FormSchemas, options: PrepareOptions): FormSchemas {
  const { model, translate, can, mode } = options;
  const schema = translateSchema(structuredClone(source.schema), translate);
  const uiSchema = structuredClone(source.uiSchema);
  const properties = (schema.properties ?? {}) as Record<string, Json>;

  for (const [name, ui] of Object.entries(uiSchema)) {
    if (name.startsWith('ui:') || !ui || typeof ui !== 'object') continue;
    const permission = uiOptionsOf(ui as Json).permission as string | undefined;
    if (permission && !can(permission)) {
      delete properties[name];
      delete uiSchema[name];
      schema.required = ((schema.required as string[] | undefined) ?? []).filter((required) => required !== name);
    }
  }
  if (mode !== 'create') {
    const onlyOnCreate = new Set(model.fields.filter((field) => field.validation.requiredOnCreate).map((field) => field.name));
    schema.required = ((schema.required as string[] | undefined) ?? []).filter((name) => !onlyOnCreate.has(name));
  }
  decorateUi(uiSchema, model.fields, translate);
  // Read-only forms (view, delete) show form lists without add / remove controls (docs/product-rules.md#screens).
  if (mode === 'readonly') uiSchema['ui:globalOptions'] = { ...(uiSchema['ui:globalOptions'] as Json | undefined), addable: false, removable: false, orderable: false };
  return { ...source, schema, uiSchema };
}

function translateSchema(node: Json, translate: Translate): Json {
  if (typeof node.title === 'string') node.title = translate(node.title);
  if (typeof node.description === 'string') node.description = translate(node.description);
  for (const child of Object.values((node.properties ?? {}) as Record<string, Json>)) translateSchema(child, translate);
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) translateSchema(node.items as Json, translate);
  return node;
}

/** Walks the UI schema beside the model fields (objectFields for nested ones). */
function decorateUi(uiSchema: Json, fields: readonly FieldModel[], translate: Translate): void {
  for (const field of fields) {
    const ui = uiSchema[field.name] as Json | undefined;
    if (!ui) continue;
    const options = { ...uiOptionsOf(ui) };
    if (typeof options.placeholder === 'string') {
      ui['ui:placeholder'] = translate(options.placeholder);
      delete options.placeholder;
    }
    ui['ui:options'] = options;
    if (field.objectFields) {
      // A list of objects (array.object) keeps its fields' UI under `items`, an object in place.
      const list = fieldType(field.type).list;
      const nested = list ? (ui.items as Json | undefined) : ui;
      if (nested) decorateUi(nested, field.objectFields, translate);
      if (list) ui.items = labelledItems(nested ?? {}, field, translate);
    }
  }
}

/** Sub-fields whose text names an item best, in order; the first filled one is its label. */
const LABEL_FIELDS = ['title', 'name', 'attribute', 'source', 'url', 'file', 'message', 'content'];
const ITEM_LABEL_MAX = 60;

/**
 * RJSF titles list items "<field title>-<n>" ("Enlaces-1"); a function for `items` (RJSF 6 calls
 * it per item) titles each by its own content ("Manual de uso") instead, else "<item> <n>".
 */
function labelledItems(itemsUi: Json, field: FieldModel, translate: Translate): (item: unknown, index: number) => Json {
  const names = new Set((field.objectFields ?? []).map((sub) => sub.name));
  const candidates = LABEL_FIELDS.filter((name) => names.has(name));
  const fallback = translate(field.label);
  return (item, index) => ({ ...itemsUi, 'ui:title': itemLabel(item, candidates) ?? `${fallback} ${index + 1}` });
}

export function itemLabel(item: unknown, candidates: readonly string[]): string | null {
  if (!item || typeof item !== 'object') return null;
  for (const name of candidates) {
    const value = (item as Record<string, unknown>)[name];
    const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : value && typeof value === 'object' && typeof (value as Json).filename === 'string' ? String((value as Json).filename) : '';
    if (text) return text.length > ITEM_LABEL_MAX ? `${text.slice(0, ITEM_LABEL_MAX - 1)}…` : text;
  }
  return null;
}
