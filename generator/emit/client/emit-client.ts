import type { EntityModel, EntityModelMap, FieldModel } from '../../../contract/model/entity-model.ts';
import { fieldType } from '../../../contract/field-types/field-types.ts';
import { buildInputSchema, type JsonSchema } from '../json-schema.ts';
import { constModule, GENERATED_HEADER, json, type EmittedFiles } from '../emitted-files.ts';
import { emitTypes } from './emit-types.ts';
import { emitFormValidator } from './emit-form-validator.ts';
import { emitIcons } from './emit-icons.ts';

const OUT = 'src/generated';
// Gallery order: the path of a new administrator (knowledge base, content, bot, chat), then administration.
const MENU_GROUPS = ['home', 'knowledge', 'bot', 'chat', 'admin'] as const;

/** The client model: the entity model without its storage details, which are the server's business. */
function clientModel(model: EntityModel): Omit<EntityModel, 'storage'> {
  const { storage: _storage, ...rest } = model;
  return rest;
}

function emitEntities(models: EntityModelMap): string {
  const value = Object.fromEntries(Object.values(models).map((m) => [m.name, clientModel(m)]));
  return constModule(
    "import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';\nimport type { EntityName } from './types.ts';\n",
    'entities',
    'Record<EntityName, ClientEntityModel>',
    value,
  );
}

/**
 * Who may do what with each entity, without the rest of its model: what the console's route table
 * needs to guard a screen. The route table is in the entry chunk, where the full entities module
 * (hundreds of KB) would be downloaded by the sign-in page too.
 */
function emitEntityAccess(models: EntityModelMap): string {
  const value = Object.fromEntries(
    Object.values(models).map((m) => {
      const { manage, view, viewOwn, create, createOwn, update, delete: remove } = m.permissions;
      return [m.name, { permissions: { manage, view, viewOwn, create, createOwn, update, delete: remove }, route: m.route ? { permission: m.route.permission } : null }];
    }),
  );
  return constModule(
    "import type { EntityPermissionNames } from '../../contract/permissions/entity-access.ts';\nimport type { EntityName } from './types.ts';\n\nexport interface EntityAccess {\n  permissions: EntityPermissionNames;\n  route: { permission: string } | null;\n}\n",
    'entityAccess',
    'Record<EntityName, EntityAccess>',
    value,
  );
}

function emitEntityClients(models: EntityModelMap): string {
  const generic = Object.values(models).filter((m) => m.api.endpoints === 'generic');
  const types = generic.flatMap((m) => [m.typeName, m.inputTypeName]).join(', ');
  return `${GENERATED_HEADER}import type { Transport } from '../../runtime/transport/transport.ts';
import { EntityClient } from '../../runtime/clients/entity-client.ts';
import { entities } from './entities.ts';
import type { ${types} } from './types.ts';

/** One typed client per entity with the generic API, all over the given transport. */
export function createEntityClients(transport: Transport) {
  return {
${generic.map((m) => `    ${m.name}: new EntityClient<${m.typeName}, ${m.inputTypeName}>(transport, entities.${m.name}),`).join('\n')}
  };
}

export type EntityClients = ReturnType<typeof createEntityClients>;
export type GenericEntityName = keyof EntityClients;
`;
}

function emitRoutes(models: EntityModelMap): string {
  const routes = Object.values(models)
    .filter((m) => m.route)
    .map((m) => ({ path: m.route!.path, entity: m.name, permission: m.route!.permission, layout: m.route!.layout }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return constModule(
    "import type { EntityName } from './types.ts';\n\nexport interface GeneratedRoute {\n  path: string;\n  entity: EntityName;\n  permission: string;\n  layout: 'default' | 'chat';\n}\n",
    'generatedRoutes',
    'GeneratedRoute[]',
    routes,
  );
}

/** The console's menu groups (src/generated/menu.ts), also served by a running server's live model (server/studio). */
export function menuGroupsOf(models: EntityModelMap) {
  return MENU_GROUPS.map((group) => ({
    group,
    label: `menu.group.${group}`,
    items: Object.values(models)
      .filter((m) => m.menu?.group === group)
      .sort((a, b) => a.menu!.order - b.menu!.order || a.name.localeCompare(b.name))
      .map((m) => ({ entity: m.name, label: m.menu!.label, icon: m.menu!.icon, path: m.route!.path, permission: m.menu!.permission })),
  })).filter((g) => g.items.length > 0);
}

function emitMenu(models: EntityModelMap): string {
  const groups = menuGroupsOf(models);
  return constModule(
    "import type { EntityName } from './types.ts';\n\nexport interface MenuItem {\n  entity: EntityName;\n  label: string;\n  icon: string;\n  path: string;\n  permission: string;\n}\n\nexport interface MenuGroup {\n  group: 'home' | 'bot' | 'knowledge' | 'chat' | 'admin';\n  label: string;\n  items: MenuItem[];\n}\n",
    'menuGroups',
    'MenuGroup[]',
    groups,
  );
}

function emitPermissions(models: EntityModelMap): string {
  const all = [...new Set(Object.values(models).flatMap((m) => m.permissions.all))];
  return `${GENERATED_HEADER}
/** Every permission the manifests define, grouped by entity in manifest order. */
export const permissions = ${JSON.stringify(all, null, 2)} as const;

export type Permission = (typeof permissions)[number];
`;
}

function uiOptions(field: FieldModel): Record<string, unknown> {
  const options: Record<string, unknown> = { fieldType: field.type };
  // The textarea's height; other widgets have no rows.
  if (fieldType(field.type).form.widget === 'textarea') options.rows = field.form.rows;
  if (field.ref) options.ref = field.ref;
  if (field.form.accept) options.accept = field.form.accept;
  if (field.form.placeholder) options.placeholder = field.form.placeholder;
  if (field.form.minDate) options.minDate = field.form.minDate;
  if (field.form.maxDate) options.maxDate = field.form.maxDate;
  if (field.tab) options.tab = field.tab;
  if (field.menu) options.menu = field.menu;
  if (field.permission) options.permission = field.permission;
  if (field.visibleWhen) options.visibleWhen = field.visibleWhen;
  if (field.persistentHint) options.persistentHint = true;
  if (field.column.formatter) options.formatter = field.column.formatter;
  if (field.valueLabels) options.valueLabels = field.valueLabels;
  if (fieldType(field.type).list) options.orderable = false;
  return options;
}

function uiField(field: FieldModel): JsonSchema {
  const ui: JsonSchema = {};
  const form = fieldType(field.type).form;
  if (field.form.hidden) ui['ui:widget'] = 'hidden';
  else if (form.widget) ui['ui:widget'] = form.widget;
  if (field.readonly) ui['ui:readonly'] = true;
  // An object value (an uploaded file) is drawn by a field, not a widget: RJSF renders objects with fields.
  if (form.field) ui['ui:field'] = form.field;
  ui['ui:options'] = uiOptions(field);
  if (field.objectFields) {
    const nested: JsonSchema = { 'ui:order': [...field.objectFields.map((f) => f.name), '*'] };
    for (const sub of field.objectFields) nested[sub.name] = uiField(sub);
    if (fieldType(field.type).list) ui.items = nested;
    else Object.assign(ui, nested);
  }
  return ui;
}

export function uiSchema(model: EntityModel): JsonSchema {
  const ui: JsonSchema = {
    'ui:order': [...model.fields.map((f) => f.name), '*'],
    'ui:options': { tabs: model.tabs, menus: model.menus },
  };
  for (const field of model.fields) ui[field.name] = uiField(field);
  return ui;
}

function emitFormLoaders(models: EntityModelMap): string {
  const entries = Object.values(models).map(
    (m) => `  ${m.name}: async () => ({
    schema: (await import('./schemas/${m.name}.schema.json')).default as JsonSchema,
    uiSchema: (await import('./schemas/${m.name}.ui.json')).default as UiSchema,
    validateFns: (await import('./validators/${m.name}.ts')).validateFns as ValidatorFunctions,
  }),`,
  );
  return `${GENERATED_HEADER}import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { EntityName } from './types.ts';

export type JsonSchema = Record<string, unknown>;
export type UiSchema = Record<string, unknown>;

/**
 * Form JSON Schema, UI schema and precompiled validators per entity, loaded on demand so each
 * CRUD route ships only its own. The validators are code, not schemas: no eval in the browser.
 */
export const formLoaders: Record<EntityName, () => Promise<{ schema: JsonSchema; uiSchema: UiSchema; validateFns: ValidatorFunctions }>> = {
${entries.join('\n')}
};
`;
}

export function emitClient(models: EntityModelMap, enums: Record<string, string[]>): EmittedFiles {
  const files: EmittedFiles = new Map();
  files.set(`${OUT}/types.ts`, emitTypes(models, enums));
  files.set(`${OUT}/entities.ts`, emitEntities(models));
  files.set(`${OUT}/entity-access.ts`, emitEntityAccess(models));
  files.set(`${OUT}/entity-clients.ts`, emitEntityClients(models));
  files.set(`${OUT}/routes.ts`, emitRoutes(models));
  files.set(`${OUT}/menu.ts`, emitMenu(models));
  files.set(`${OUT}/icons.ts`, emitIcons(models));
  files.set(`${OUT}/permissions.ts`, emitPermissions(models));
  files.set(`${OUT}/forms.ts`, emitFormLoaders(models));
  for (const model of Object.values(models)) {
    const formSchema = buildInputSchema(model, 'form');
    files.set(`${OUT}/schemas/${model.name}.schema.json`, json(formSchema));
    files.set(`${OUT}/validators/${model.name}.ts`, emitFormValidator(model.name, formSchema));
    files.set(`${OUT}/schemas/${model.name}.ui.json`, json(uiSchema(model)));
  }
  return files;
}
