import { fieldType } from '../../contract/field-types/field-types.ts';
import type {
  ColumnModel, ColumnType, Condition, EntityModel, EntityModelMap, FieldModel, FieldType, IndexModel,
  RuleName, SectionModel, StorageModel, ValidationModel,
} from '../../contract/model/entity-model.ts';
import type { LoadedManifest, Manifest, ManifestCondition, ManifestField, ManifestSection, SharedEnums } from './manifest.ts';

const DEFAULT_MESSAGES: Record<RuleName, string> = {
  required: 'validation.required',
  unique: 'validation.unique',
  pattern: 'validation.pattern',
  minLength: 'validation.minLength',
  maxLength: 'validation.maxLength',
  min: 'validation.min',
  max: 'validation.max',
  integer: 'validation.integer',
  format: 'validation.invalidValue',
  enum: 'validation.invalidValue',
  minItems: 'validation.minItems',
  maxItems: 'validation.maxItems',
};

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'validation.invalidEmail',
  ipv4: 'validation.invalidIpv4',
  ipv6: 'validation.invalidIpv6',
  uri: 'validation.invalidUri',
};


const DEFAULT_FORMATS = ['CSV', 'JSON'] as const;
/** Types a top-level field is filterable by default (the filter bar has an input for each). */
const FILTERABLE_TYPES = new Set<FieldType>(['string', 'enum', 'number', 'boolean', 'date', 'ref']);
const SYSTEM = new Set<string>(['_id', 'createdAt', 'updatedAt']);
const TABLE_COLUMN_TYPES = new Set<FieldType>([
  'string', 'enum', 'number', 'boolean', 'date', 'ref', 'array.string', 'array.enum', 'array.number', 'array.ref',
]);

/** Builds the normalised model of every manifest. Assumes the manifests passed validation. */
export function buildModels(manifests: LoadedManifest[], enums: SharedEnums): EntityModelMap {
  const raw = new Map(manifests.map(({ manifest }) => [manifest.name, manifest]));
  const models: EntityModelMap = {};
  for (const { manifest } of [...manifests].sort((a, b) => a.manifest.name.localeCompare(b.manifest.name))) {
    models[manifest.name] = buildModel(manifest, raw, enums);
  }
  return models;
}

function buildModel(m: Manifest, all: Map<string, Manifest>, enums: SharedEnums): EntityModel {
  const fields = m.fields.map((field) => buildField(field, all, enums, [m.name]));
  const p = m.permissions ?? {};
  const permission = (action: 'manage' | 'view' | 'create' | 'update' | 'delete') => p[action] ?? `${m.name}:${action}`;
  const permissions = {
    manage: permission('manage'),
    view: permission('view'),
    viewOwn: p.viewOwn ?? null,
    create: permission('create'),
    createOwn: p.createOwn ?? null,
    update: permission('update'),
    delete: permission('delete'),
    extra: p.extra ?? [],
    all: [] as string[],
  };
  permissions.all = unique([
    permissions.view, permissions.viewOwn, permissions.create, permissions.createOwn,
    permissions.update, permissions.delete, permissions.manage, ...permissions.extra,
  ].filter((x): x is string => x !== null));
  const flag = (name: keyof NonNullable<Manifest['flags']>) => m.flags?.[name] ?? true;
  const routePermission = m.route?.permission ?? permissions.manage;
  const readable = fields.filter((field) => !field.secret);
  const tenant = m.scope?.tenant ?? false;
  // A table without tenants is shared by all of them: only platform users write it unless told.
  const scope = { tenant, owner: m.scope?.owner ?? null, writes: m.scope?.writes ?? (tenant ? 'tenant' : 'platform') } as const;
  const exportable = flag('exportable');
  const importable = flag('importable');
  const byName = new Map(m.fields.map((field) => [field.name, field]));
  const tableFields = readable.filter((f) => TABLE_COLUMN_TYPES.has(f.type) && !f.column.hidden).map((f) => f.name);
  const exportFields = readable.filter((f) => byName.get(f.name)?.exportable !== false).map((f) => f.name);
  const barFields = readable.filter((f) => f.filterable && !byName.get(f.name)?.filter?.hidden);

  return {
    name: m.name,
    typeName: m.typeName,
    inputTypeName: `${m.typeName}Input`,
    label: m.label,
    labelPlural: m.labelPlural ?? m.label,
    api: { basePath: m.api.basePath, endpoints: m.api.endpoints ?? 'generic' },
    route: m.route ? { path: m.route.path, layout: m.route.layout ?? 'default', permission: routePermission } : null,
    menu: m.menu
      ? {
        group: m.menu.group, icon: m.menu.icon, order: m.menu.order ?? 0,
        label: m.menu.label ?? m.labelPlural ?? m.label, permission: m.menu.permission ?? routePermission,
      }
      : null,
    displayField: m.displayField ?? 'name',
    scope,
    permissions,
    flags: {
      creatable: flag('creatable'), editable: flag('editable'), deletable: flag('deletable'),
      viewable: flag('viewable'), exportable, importable,
    },
    export: {
      formats: exportable ? [...(m.export?.formats ?? DEFAULT_FORMATS)] : [],
      headers: m.export?.headers ? orderedThenRest(m.export.headers, exportFields) : ['_id', ...exportFields, 'createdAt', 'updatedAt'],
    },
    import: {
      formats: importable ? [...(m.import?.formats ?? DEFAULT_FORMATS)] : [],
      // Listed even when the entity is not importable: formats says whether it is, this what it reads.
      fields: fields.filter((f) => byName.get(f.name)?.importable !== false).map((f) => f.name),
    },
    dialog: { fullscreen: m.dialog?.fullscreen ?? false, maxWidth: m.dialog?.maxWidth ?? null, zIndex: m.dialog?.zIndex ?? 2000 },
    table: {
      columns: m.table?.columns ? orderedThenRest(m.table.columns, tableFields) : tableFields,
      actionColumnWidth: m.table?.actionColumnWidth ?? 190,
      defaultSort: { field: m.table?.defaultSort?.field ?? 'createdAt', order: m.table?.defaultSort?.order ?? 'asc' },
    },
    rowActions: (m.rowActions ?? []).map((a) => ({ name: a.name, label: a.label, icon: a.icon, permission: a.permission ?? null })),
    tabs: (m.tabs ?? []).map(buildSection),
    menus: (m.menus ?? []).map(buildSection),
    filters: [
      ...(m.filters ?? []).map((f) => ({
        field: f.field,
        operator: f.operator,
        label: f.label ?? fields.find((field) => field.name === f.field)?.label ?? `common.${f.field}`,
        permission: f.permission ?? null,
      })),
      ...barFields.filter((f) => !(m.filters ?? []).some((listed) => listed.field === f.name)).map((f) => ({
        field: f.name,
        operator: byName.get(f.name)?.filter?.operator ?? fieldType(f.type).filter?.defaultOperator ?? 'eq',
        label: f.label,
        permission: f.permission,
      })),
    ],
    fields,
    searchFields: readable.filter((f) => f.searchable).map((f) => f.name),
    sortFields: unique(['_id', 'createdAt', 'updatedAt', ...readable.filter((f) => f.sortable).map((f) => f.name)]),
    filterFields: unique([
      '_id', 'createdAt', 'updatedAt',
      ...readable.filter((f) => f.filterable).map((f) => f.name),
      ...(m.filters ?? []).map((f) => f.field),
    ]),
    storage: buildStorage(m, fields, scope),
  };
}

function buildSection(section: ManifestSection): SectionModel {
  return {
    name: section.name,
    label: section.label,
    permission: section.permission ?? null,
    visibleWhen: buildCondition(section.visibleWhen),
  };
}

function buildCondition(condition: ManifestCondition | undefined): Condition | null {
  if (!condition) return null;
  return { field: condition.field, in: condition.in ?? null, notIn: condition.notIn ?? null };
}

function buildField(f: ManifestField, all: Map<string, Manifest>, enums: SharedEnums, parentPath: string[]): FieldModel {
  const values = f.values ?? (f.enum ? enums[f.enum] ?? null : null);
  const v = f.validation ?? {};
  const messages = { ...DEFAULT_MESSAGES } as Record<RuleName, string>;
  if (v.format) messages.format = FORMAT_MESSAGES[v.format];
  Object.assign(messages, v.messages ?? {});
  const validation: ValidationModel = {
    required: v.required ?? false,
    requiredOnCreate: v.requiredOnCreate ?? false,
    unique: v.unique !== undefined && v.unique !== false,
    uniqueGlobal: v.unique === 'global',
    pattern: v.pattern ?? null,
    minLength: v.minLength ?? null,
    maxLength: v.maxLength ?? null,
    min: v.min ?? null,
    max: v.max ?? null,
    integer: v.integer ?? false,
    format: v.format ?? null,
    minItems: v.minItems ?? null,
    maxItems: v.maxItems ?? null,
    messages,
  };
  const target = f.ref ? all.get(f.ref.entity) : undefined;
  return {
    name: f.name,
    type: f.type,
    label: f.label,
    hint: f.hint ?? null,
    persistentHint: f.persistentHint ?? false,
    default: f.default ?? defaultFor(f),
    readonly: f.readonly ?? false,
    secret: f.secret ?? false,
    permission: f.permission ?? null,
    tab: f.tab ?? null,
    menu: f.menu ?? null,
    visibleWhen: buildCondition(f.visibleWhen),
    values,
    enumName: f.enum ?? null,
    valueLabels: valueLabelsOf(f, values, parentPath),
    ref: f.ref
      ? {
        entity: f.ref.entity,
        display: f.ref.display ?? target?.displayField ?? 'name',
        populate: f.ref.populate ?? [],
        clearable: f.ref.clearable ?? true,
        onDelete: f.ref.onDelete ?? 'restrict',
      }
      : null,
    objectFields: f.objectFields ? f.objectFields.map((sub) => buildField(sub, all, enums, [...parentPath, f.name])) : null,
    validation,
    searchable: f.searchable ?? false,
    sortable: f.sortable ?? false,
    // Top-level fields of the filterable types are filterable unless the manifest says false.
    filterable: f.filterable ?? (parentPath.length === 1 && FILTERABLE_TYPES.has(f.type) && !f.secret && f.storage !== 'json'),
    indexed: f.indexed ?? false,
    column: {
      width: f.column?.width ?? null,
      hidden: f.column?.hidden ?? false,
      formatter: f.column?.formatter ?? (f.type === 'boolean' ? 'badge' : null),
      decimals: f.column?.decimals ?? null,
    },
    form: {
      hidden: f.form?.hidden ?? false,
      rows: f.form?.rows ?? 5,
      placeholder: f.form?.placeholder ?? null,
      accept: f.form?.accept ?? null,
      minDate: f.form?.minDate ?? null,
      maxDate: f.form?.maxDate ?? null,
    },
    json: f.storage === 'json',
  };
}

/** Locale key of every value a field can show (see FieldModel.valueLabels); null for other types. */
export function valueLabelsOf(
  f: Pick<ManifestField, 'name' | 'type' | 'enum' | 'valueLabels'>, values: string[] | null, parentPath: string[],
): Record<string, string> | null {
  let defaults: Record<string, string>;
  if (f.type === 'boolean') defaults = { true: 'common.yes', false: 'common.no' };
  else if (values && (f.type === 'enum' || f.type === 'array.enum')) {
    const prefix = f.enum ? `enum.${f.enum}` : `enum.${[...parentPath, f.name].join('.')}`;
    defaults = Object.fromEntries(values.map((value) => [value, `${prefix}.${value}`]));
  } else return null;
  return { ...defaults, ...(f.valueLabels ?? {}) };
}

/** Lists start empty rather than null so forms and clients never special-case absence. */
function defaultFor(f: ManifestField): unknown {
  return fieldType(f.type).list ? [] : null;
}

function buildStorage(m: Manifest, fields: FieldModel[], scope: EntityModel['scope']): StorageModel {
  const columns: ColumnModel[] = [{ name: '_id', type: 'text', nullable: false, primaryKey: true }];
  for (const field of fields) {
    const type: ColumnType = field.json ? 'json' : field.type === 'number' && field.validation.integer ? 'integer' : fieldType(field.type).column;
    const renamedFrom = m.fields.find((f) => f.name === field.name)?.renamedFrom;
    columns.push({ name: field.name, type, nullable: true, primaryKey: false, ...(renamedFrom ? { renamedFrom } : {}) });
  }
  const declaredTenant = fields.some((field) => field.name === 'tenant');
  const tenantColumn = scope.tenant ? 'tenant' : null;
  if (scope.tenant && !declaredTenant) columns.push({ name: 'tenant', type: 'text', nullable: true, primaryKey: false });
  columns.push({ name: 'createdAt', type: 'timestamp', nullable: false, primaryKey: false });
  columns.push({ name: 'updatedAt', type: 'timestamp', nullable: false, primaryKey: false });

  // Lists are filtered by a field and ordered by creation time, so a filterable field is indexed
  // together with createdAt: the page is then read in index order instead of sorted (1M rows: 2 s -> 4 ms).
  const indexes = new Map<string, string[]>([['createdAt', ['createdAt']]]);
  if (tenantColumn) indexes.set(tenantColumn, [tenantColumn, 'createdAt']);
  // Only a field the manifest declares filterable (or indexed) gets the index: one filterable by
  // default must not make the next start build an index on a large table nobody asked for.
  const declaredFilterable = new Set(m.fields.filter((field) => field.filterable === true).map((field) => field.name));
  for (const field of fields) {
    const scalar = fieldType(field.type).column !== 'json' && !field.json;
    if (!scalar) continue;
    if (field.indexed || declaredFilterable.has(field.name)) indexes.set(field.name, [field.name, 'createdAt']);
    else if (field.sortable || field.validation.unique) indexes.set(field.name, [field.name]);
  }
  // The list's default order (conversations by last update) is read in index order too, within a tenant as well.
  const sortField = m.table?.defaultSort?.field;
  if (sortField && sortField !== 'createdAt') {
    if (!indexes.has(sortField)) indexes.set(sortField, [sortField]);
    if (tenantColumn) indexes.set(`${tenantColumn}+${sortField}`, [tenantColumn, sortField]);
  }
  const indexList: IndexModel[] = [...indexes.values()].map((columns) => ({ name: `idx_${m.dbTable}_${columns.join('_')}`, columns }));
  return { table: m.dbTable, columns, indexes: indexList, tenantColumn };
}

/**
 * An explicit list (table columns, export headers) sets the order of what it names; every other
 * field of `all` follows, so a new field shows without editing the list. Trailing system fields
 * (createdAt, updatedAt) stay last.
 */
function orderedThenRest(listed: readonly string[], all: readonly string[]): string[] {
  const rest = all.filter((name) => !listed.includes(name));
  let tail = listed.length;
  while (tail > 0 && SYSTEM.has(listed[tail - 1])) tail--;
  return [...listed.slice(0, tail), ...rest, ...listed.slice(tail)];
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
