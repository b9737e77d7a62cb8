import type { ColumnType, FieldModel, FieldType, FilterOperator } from '../model/entity-model.ts';
import type { Convert } from './convert-value.ts';
import type { CsvCodec } from './csv-codecs.ts';
import type { IsValue } from './value-checks.ts';
import type { InputSchemaWriter, JsonSchema, RecordSchemaWriter } from './json-schema-fragments.ts';

/**
 * What an emitter supplies for the types that nest or name other types (enums, refs, objects):
 * the registry says which helper a type uses, the emitter knows how to write it.
 */
export interface TypeWriter {
  enumType(field: FieldModel): string;
  refType(field: FieldModel): string;
  objectType(field: FieldModel): string;
}

/** How the list API's filters read a field: its scalar, and whether `like` applies; null: not filterable. */
export interface FilterKind {
  scalar: 'string' | 'number' | 'boolean' | 'timestamp';
  /** Free text: matched case-insensitively by `like`. */
  textual: boolean;
  /** Allowed values (enum fields): a filter value outside them is a 400. */
  enumValues: boolean;
  /** The operator of the filter bar's input for the field when the manifest names none. */
  defaultOperator: FilterOperator;
}

/**
 * How the console's table shows a value. UI-free: runtime/table/entity-cell-content.tsx draws each
 * kind, so a new type reuses a kind, or adds one here and its case there.
 */
export const CELL_KINDS = ['text', 'longText', 'date', 'boolean', 'ref', 'refList', 'chips', 'count', 'fileName', 'uploadedFile', 'secret'] as const;
export type CellKind = (typeof CELL_KINDS)[number];

/** What the form uses for a value: names in runtime/form/form-registry.ts; null: RJSF's default for its JSON type. */
export interface FormFacet {
  /** The `ui:widget` name (formWidgets). */
  widget: string | null;
  /** The `ui:field` name (formFields), for values RJSF draws as a whole (an uploaded file object). */
  field: string | null;
}

/**
 * How the edit dialog turns a value as the API returns it into what the form edits (runtime/crud/prepare-record.ts):
 * dates as Dates, populated refs as their ids. null: the value is edited as it is.
 */
export type PrepareForForm = ((value: unknown) => unknown) | null;

/** Everything Forja knows about one field type; contract/field-types/<type>.ts declares one each. */
export interface FieldTypeDefinition {
  name: FieldType;
  /** Abstract column type (db/ maps it per engine); a `storage: "json"` field is stored as json whatever its type. */
  column: ColumnType;
  /** The value is a list: never null (an unset list reads as []), not nullable in types and schemas. */
  list: boolean;
  /** A JSON value of this type, before the field's rules (a manifest's `default` is checked with it). */
  isValue: IsValue;
  /** TypeScript type of the value in a record and in an input (generator/emit/client/emit-types.ts). */
  typescript: { record: (field: FieldModel, writer: TypeWriter) => string; input: (field: FieldModel, writer: TypeWriter) => string };
  /** GraphQL type of the value in a record and in an input (generator/emit/graphql/emit-graphql.ts). */
  graphql: { output: (field: FieldModel, writer: TypeWriter) => string; input: (field: FieldModel, writer: TypeWriter) => string };
  /**
   * JSON Schema (draft-07) fragments (generator/emit/json-schema.ts): `input` is the value a body
   * or form sends (server validation and the RJSF form read the same), `record` the value a record
   * holds as the API returns it. A `storage: "json"` field takes any JSON whatever its type.
   */
  jsonSchema: { input: (field: FieldModel, writer: InputSchemaWriter) => JsonSchema; record: (field: FieldModel, writer: RecordSchemaWriter) => JsonSchema };
  /** CSV cell text for exports and back for imports (server/entities/csv-row-writer.ts, import-cells.ts). */
  csv: CsvCodec;
  /** How the table shows it (runtime/table/entity-cell-content.tsx). */
  cell: CellKind;
  /** The form widget (generator/emit/client/emit-client.ts writes it into the UI schema). */
  form: FormFacet;
  /** What the edit dialog does to a value before the form edits it. */
  prepare: PrepareForForm;
  /** How `filters` on the list API read it (server/entities/parse-filters.ts); null: holds objects, not filterable. */
  filter: FilterKind | null;
  /**
   * The field types a field of this type may have been before, each with how a stored value
   * converts; a type change from a type not listed is refused by the schema evolution plan.
   */
  convertsFrom: Partial<Record<FieldType, Convert>>;
}

/** Every facet a definition must declare (null is a declaration: "none"); checked when the registry loads. */
export const FIELD_TYPE_FACETS = [
  'name', 'column', 'list', 'isValue', 'typescript', 'graphql', 'jsonSchema', 'csv', 'cell', 'form', 'prepare', 'filter', 'convertsFrom',
] as const satisfies readonly (keyof FieldTypeDefinition)[];

// A facet added to the interface but not to the list above fails to compile here.
type MissingFacet = Exclude<keyof FieldTypeDefinition, (typeof FIELD_TYPE_FACETS)[number]>;
const noFacetMissing: [MissingFacet] extends [never] ? true : MissingFacet = true;
void noFacetMissing;
