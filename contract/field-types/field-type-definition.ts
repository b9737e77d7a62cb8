import type { ColumnType, FieldModel, FieldType } from '../model/entity-model.ts';
import type { Convert } from './convert-value.ts';

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
}

/** Everything Forja knows about one field type; contract/field-types/<type>.ts declares one each. */
export interface FieldTypeDefinition {
  name: FieldType;
  /** Abstract column type (db/ maps it per engine); a `storage: "json"` field is stored as json whatever its type. */
  column: ColumnType;
  /** TypeScript type of the value in a record and in an input (generator/emit/client/emit-types.ts). */
  typescript: { record: (field: FieldModel, writer: TypeWriter) => string; input: (field: FieldModel, writer: TypeWriter) => string };
  /** GraphQL type of the value in a record and in an input (generator/emit/graphql/emit-graphql.ts). */
  graphql: { output: (field: FieldModel, writer: TypeWriter) => string; input: (field: FieldModel, writer: TypeWriter) => string };
  /** How `filters` on the list API read it (server/entities/parse-filters.ts); null: holds objects, not filterable. */
  filter: FilterKind | null;
  /**
   * The field types a field of this type may have been before, each with how a stored value
   * converts; a type change from a type not listed is refused by the schema evolution plan.
   */
  convertsFrom: Partial<Record<FieldType, Convert>>;
}
