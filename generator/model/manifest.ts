// The manifest as written by people: the shape manifest.schema.json admits, before defaults.
// build-model.ts turns it into the EntityModel that everything else reads.
import type { ColumnFormatter, FieldType, FileFormat, FilterOperator, MenuGroup, SortOrder } from '../../contract/model/entity-model.ts';

export interface ManifestCondition { field: string; in?: (string | number | boolean)[]; notIn?: (string | number | boolean)[] }

export interface ManifestField {
  name: string;
  type: FieldType;
  label: string;
  hint?: string;
  persistentHint?: boolean;
  default?: unknown;
  readonly?: boolean;
  secret?: boolean;
  permission?: string;
  tab?: string;
  menu?: string;
  visibleWhen?: ManifestCondition;
  values?: string[];
  enum?: string;
  valueLabels?: Record<string, string>;
  ref?: { entity: string; display?: string; populate?: string[]; clearable?: boolean; onDelete?: 'restrict' | 'clear' };
  objectFields?: ManifestField[];
  validation?: {
    required?: boolean; requiredOnCreate?: boolean; unique?: boolean | 'global'; pattern?: string;
    minLength?: number; maxLength?: number; min?: number; max?: number; integer?: boolean;
    format?: 'email' | 'ipv4' | 'ipv6' | 'uri'; minItems?: number; maxItems?: number;
    messages?: Record<string, string>;
  };
  searchable?: boolean;
  sortable?: boolean;
  filterable?: boolean;
  filter?: { hidden?: boolean; operator?: FilterOperator };
  exportable?: boolean;
  importable?: boolean;
  indexed?: boolean;
  column?: { width?: number; hidden?: boolean; formatter?: ColumnFormatter; decimals?: number };
  form?: { hidden?: boolean; rows?: number; placeholder?: string; accept?: string; minDate?: string; maxDate?: string };
  storage?: 'json';
  renamedFrom?: string;
}

export interface ManifestSection { name: string; label: string; permission?: string; visibleWhen?: ManifestCondition }

export interface Manifest {
  name: string;
  typeName: string;
  label: string;
  labelPlural?: string;
  dbTable: string;
  api: { basePath: string; endpoints?: 'generic' | 'custom' };
  route?: { path: string; layout?: 'default' | 'chat'; permission?: string };
  menu?: { group: MenuGroup; icon: string; order?: number; label?: string; permission?: string };
  displayField?: string;
  scope?: { tenant?: boolean; owner?: string; writes?: 'tenant' | 'platform' };
  permissions?: {
    manage?: string; view?: string; viewOwn?: string; create?: string; createOwn?: string;
    update?: string; delete?: string; extra?: string[];
  };
  flags?: Partial<Record<'creatable' | 'editable' | 'deletable' | 'viewable' | 'exportable' | 'importable', boolean>>;
  export?: { formats?: FileFormat[]; headers?: string[] };
  import?: { formats?: FileFormat[] };
  dialog?: { fullscreen?: boolean; maxWidth?: number; zIndex?: number };
  table?: { columns?: string[]; actionColumnWidth?: number; defaultSort?: { field: string; order?: SortOrder } };
  rowActions?: { name: string; label: string; icon: string; permission?: string }[];
  tabs?: ManifestSection[];
  menus?: ManifestSection[];
  filters?: { field: string; operator: FilterOperator; label?: string; permission?: string }[];
  fields: ManifestField[];
}

/** A manifest that passed the meta-schema, with the file it came from. */
export interface LoadedManifest {
  file: string;
  manifest: Manifest;
}

/** Shared enumerations (manifests/enums.json): name -> values. */
export type SharedEnums = Record<string, string[]>;
