// The normalised model every consumer reads (server, client runtime, emitters).
// Manifests are sanitised once into this shape: every default is filled in and every
// optional value is `null` rather than absent, so consumers never re-derive defaults.
// Types only: this module emits no code and is safe to import from server and browser.
import type { EntityPermissionNames } from '../permissions/entity-access.ts';

export const FIELD_TYPES = [
  'string', 'longString', 'password', 'enum', 'number', 'file', 'fullFile', 'boolean', 'date',
  'ref', 'object', 'array.string', 'array.enum', 'array.number', 'array.ref', 'array.object',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'like'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FileFormat = 'CSV' | 'JSON';
export type MenuGroup = 'home' | 'bot' | 'knowledge' | 'chat' | 'admin';
export type ColumnFormatter = 'msToSeconds' | 'badge' | 'chips' | 'truncate';
export type SortOrder = 'asc' | 'desc';

/** Abstract column types; db/ maps them to each dialect. */
export type ColumnType = 'text' | 'integer' | 'real' | 'boolean' | 'json' | 'timestamp';

export interface Condition {
  field: string;
  /** Exactly one of in / notIn is set. */
  in: (string | number | boolean)[] | null;
  notIn: (string | number | boolean)[] | null;
}

export type RuleName =
  | 'required' | 'unique' | 'pattern' | 'minLength' | 'maxLength' | 'min' | 'max'
  | 'integer' | 'format' | 'enum' | 'minItems' | 'maxItems';

export interface ValidationModel {
  required: boolean;
  requiredOnCreate: boolean;
  unique: boolean;
  /** Unique across tenants too (usernames), not only within one tenant. */
  uniqueGlobal: boolean;
  pattern: string | null;
  minLength: number | null;
  maxLength: number | null;
  min: number | null;
  max: number | null;
  integer: boolean;
  format: 'email' | 'ipv4' | 'ipv6' | 'uri' | null;
  minItems: number | null;
  maxItems: number | null;
  /** Message key for every rule, defaults filled (validation.required, validation.invalidIpv4, ...). */
  messages: Record<RuleName, string>;
}

export interface RefModel {
  entity: string;
  display: string;
  populate: string[];
  clearable: boolean;
  /**
   * Deleting the referenced record while this field points at it: 'restrict' refuses the delete
   * (409 with the count), 'clear' sets this field to null (optional single refs only).
   */
  onDelete: 'restrict' | 'clear';
}

export interface FieldModel {
  name: string;
  type: FieldType;
  label: string;
  hint: string | null;
  persistentHint: boolean;
  default: unknown;
  readonly: boolean;
  secret: boolean;
  permission: string | null;
  tab: string | null;
  menu: string | null;
  visibleWhen: Condition | null;
  /** Allowed values of enum / array.enum fields (resolved from shared enums too). */
  values: string[] | null;
  /** Name of the shared enumeration the values came from, for a named TS type. */
  enumName: string | null;
  /**
   * Locale key per value: enum.<EnumName>.<value> for shared enums, enum.<entity>.<field path>.<value>
   * for inline values, "true"/"false" -> common.yes/common.no for booleans; the manifest may override.
   */
  valueLabels: Record<string, string> | null;
  ref: RefModel | null;
  objectFields: FieldModel[] | null;
  validation: ValidationModel;
  searchable: boolean;
  sortable: boolean;
  filterable: boolean;
  indexed: boolean;
  column: { width: number | null; hidden: boolean; formatter: ColumnFormatter | null; decimals: number | null };
  form: {
    hidden: boolean; rows: number; placeholder: string | null; accept: string | null;
    minDate: string | null; maxDate: string | null;
  };
  /** Value may be any JSON (stored as JSON whatever its type). */
  json: boolean;
}

export interface SectionModel {
  name: string;
  label: string;
  permission: string | null;
  visibleWhen: Condition | null;
}

export interface FilterModel {
  field: string;
  operator: FilterOperator;
  label: string;
  permission: string | null;
}

export interface RowActionModel {
  name: string;
  label: string;
  icon: string;
  permission: string | null;
}

/** The action permissions (contract/permissions decides what each allows) plus the manifest's extras. */
export interface PermissionsModel extends EntityPermissionNames {
  extra: string[];
  /** Every permission above, deduplicated, in declaration order. */
  all: string[];
}

export interface ColumnModel {
  name: string;
  type: ColumnType;
  nullable: boolean;
  primaryKey: boolean;
  /**
   * The column's previous name (the field's `renamedFrom`): the migration moves that column and its
   * data here. Absent rather than null, so the storage of models without renames stays as it was.
   */
  renamedFrom?: string;
}

export interface IndexModel {
  name: string;
  columns: string[];
}

export interface StorageModel {
  table: string;
  columns: ColumnModel[];
  indexes: IndexModel[];
  /** Column holding the tenant id, when tenant-scoped. */
  tenantColumn: string | null;
}

export interface EntityModel {
  name: string;
  typeName: string;
  inputTypeName: string;
  label: string;
  labelPlural: string;
  api: { basePath: string; endpoints: 'generic' | 'custom' };
  route: { path: string; layout: 'default' | 'chat'; permission: string } | null;
  menu: { group: MenuGroup; icon: string; order: number; label: string; permission: string } | null;
  displayField: string;
  /**
   * tenant: records belong to a tenant. writes: who may create, change and delete them;
   * 'platform' (every entity without a tenant: a table all tenants share) is platform users only.
   */
  scope: { tenant: boolean; owner: string | null; writes: 'tenant' | 'platform' };
  permissions: PermissionsModel;
  flags: {
    creatable: boolean; editable: boolean; deletable: boolean;
    viewable: boolean; exportable: boolean; importable: boolean;
  };
  /** Resolved: the manifest's headers first, then every other exportable readable field. */
  export: { formats: FileFormat[]; headers: string[] };
  /** Formats, and the fields an import reads (columns of other fields are ignored). */
  import: { formats: FileFormat[]; fields: string[] };
  dialog: { fullscreen: boolean; maxWidth: number | null; zIndex: number };
  /** columns resolved: the manifest's order first, then every other visible field (column.hidden opts out). */
  table: { columns: string[]; actionColumnWidth: number; defaultSort: { field: string; order: SortOrder } };
  rowActions: RowActionModel[];
  tabs: SectionModel[];
  menus: SectionModel[];
  /** The filter bar: the manifest's filters first, then every other filterable field without filter.hidden. */
  filters: FilterModel[];
  fields: FieldModel[];
  /** Field names the search box matches, may be sorted / filtered by (system fields included). */
  searchFields: string[];
  sortFields: string[];
  filterFields: string[];
  storage: StorageModel;
}

/** Fields every record carries without being declared. */
export const SYSTEM_FIELDS = ['_id', 'createdAt', 'updatedAt'] as const;

export type EntityModelMap = Record<string, EntityModel>;
