import type { ColumnType, FieldType } from '../model/entity-model.ts';
import type { Convert } from './convert-value.ts';

/** Everything Forja knows about one field type; contract/field-types/<type>.ts declares one each. */
export interface FieldTypeDefinition {
  name: FieldType;
  /** Abstract column type (db/ maps it per engine); a `storage: "json"` field is stored as json whatever its type. */
  column: ColumnType;
  /**
   * The field types a field of this type may have been before, each with how a stored value
   * converts; a type change from a type not listed is refused by the schema evolution plan.
   */
  convertsFrom: Partial<Record<FieldType, Convert>>;
}
