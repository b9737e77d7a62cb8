import { hasWidget, type RJSFSchema, type RegistryFieldsType, type RegistryWidgetsType, type TemplatesType, type Widget } from '@rjsf/utils';
import { getDefaultRegistry } from '@rjsf/core';
import { FIELD_TYPES, type FieldType } from '../../contract/model/entity-model.ts';
import { formFields, formTemplates, formWidgets } from './form-registry.ts';

/**
 * Everything the entity form draws with, as rjsf's `withTheme` takes it: widgets and fields by
 * the names UI schemas use, the templates, and which widget draws each field type. The app (or a
 * product) extends it with `withFormTheme` in src/app/form-theme.ts and never edits the runtime
 * (docs/architecture.md, "Add a widget for a field type").
 */
export interface FormTheme {
  readonly widgets: Readonly<RegistryWidgetsType>;
  readonly fields: Readonly<RegistryFieldsType>;
  readonly templates: Readonly<Partial<TemplatesType>>;
  /**
   * A widget name (a key of `widgets`) by field type: every top-level field of that type is drawn
   * by it, in place of the type's own (contract/field-types/<type>.ts `form.widget`). A field
   * hidden by its manifest stays hidden; an entity's `fieldWidgets` override still wins.
   */
  readonly fieldTypeWidgets: Readonly<Partial<Record<FieldType, string>>>;
}

/** What the runtime draws with when the app adds nothing. */
export const baseFormTheme: FormTheme = Object.freeze({
  widgets: formWidgets,
  fields: formFields,
  templates: formTemplates,
  fieldTypeWidgets: Object.freeze({}),
});

/** What an app adds to a theme: any of its four maps, each merged over the base's by name. */
export interface FormThemeExtension {
  widgets?: Readonly<Record<string, Widget>>;
  fields?: Readonly<RegistryFieldsType>;
  templates?: Readonly<Partial<TemplatesType>>;
  fieldTypeWidgets?: Readonly<Partial<Record<FieldType, string>>>;
}

const THEME_FILE = 'src/app/form-theme.ts';

/**
 * A new theme: `base` with `extension`'s entries added (or replacing theirs by name). Fails at
 * once, naming the key and the fix, when a field-type entry names an unknown type or a widget
 * neither theme registers: a typo must not surface as a form that silently draws the default.
 */
export function withFormTheme(base: FormTheme, extension: FormThemeExtension): FormTheme {
  const theme: FormTheme = Object.freeze({
    widgets: Object.freeze({ ...base.widgets, ...extension.widgets }),
    fields: Object.freeze({ ...base.fields, ...extension.fields }),
    templates: Object.freeze({ ...base.templates, ...extension.templates }),
    fieldTypeWidgets: Object.freeze({ ...base.fieldTypeWidgets, ...extension.fieldTypeWidgets }),
  });
  for (const [type, widget] of Object.entries(theme.fieldTypeWidgets)) {
    if (!(FIELD_TYPES as readonly string[]).includes(type)) {
      throw new Error(`Form theme: fieldTypeWidgets has the key "${type}", which is no field type. Use one of ${FIELD_TYPES.join(', ')} (contract/model/entity-model.ts), in ${THEME_FILE}.`);
    }
    if (typeof widget !== 'string' || !isKnownWidget(theme, widget)) {
      throw new Error(
        `Form theme: fieldTypeWidgets.${type} names the widget "${String(widget)}", which is not registered. ` +
          `Register it in the same call, withFormTheme(base, { widgets: { ${String(widget)}: YourWidget }, fieldTypeWidgets: { ${type}: '${String(widget)}' } }), in ${THEME_FILE}.`,
      );
    }
  }
  return theme;
}

let defaultWidgets: RegistryWidgetsType | null = null;

/** rjsf's own widgets (TextWidget, HiddenWidget, ...), which every form has besides the theme's. */
function themeAndDefaultWidgets(theme: FormTheme): RegistryWidgetsType {
  defaultWidgets ??= getDefaultRegistry().widgets;
  return { ...defaultWidgets, ...theme.widgets };
}

/** Registered under exactly this name, in the theme or among rjsf's own. */
function isKnownWidget(theme: FormTheme, name: string): boolean {
  return Object.hasOwn(themeAndDefaultWidgets(theme), name);
}

/**
 * Every `ui:widget` a UI schema names by string must resolve for its field's schema, as rjsf
 * resolves it (a registered name, or rjsf's alias for the type: "hidden", "text", ...). Throws
 * naming the entity, the field's path, the widget and how to register it, where rjsf would only
 * say "No widget" from inside the render.
 */
export function checkWidgetNames(uiSchema: Record<string, unknown>, schema: RJSFSchema | undefined, theme: FormTheme, entity: string, at = ''): void {
  const widgets = themeAndDefaultWidgets(theme);
  for (const [key, value] of Object.entries(uiSchema)) {
    if (key === 'ui:widget' && typeof value === 'string' && !(schema ? hasWidget(schema, value, widgets) : Object.hasOwn(widgets, value))) {
      throw new Error(
        `The form of "${entity}" asks for the widget "${value}" at ${at || '(root)'}, which the form theme does not register. ` +
          `Add it with withFormTheme(baseFormTheme, { widgets: { ${value}: YourWidget } }) in ${THEME_FILE}, or fix the name.`,
      );
    }
    if (!value || typeof value !== 'object' || Array.isArray(value) || key.startsWith('ui:')) continue;
    const child = key === 'items' && schema?.items && typeof schema.items === 'object' && !Array.isArray(schema.items) ? schema.items : schema?.properties?.[key];
    checkWidgetNames(value as Record<string, unknown>, typeof child === 'object' ? (child as RJSFSchema) : undefined, theme, entity, at ? `${at}.${key}` : key);
  }
}
