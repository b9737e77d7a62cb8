import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import { refId } from '../../contract/field-types/prepare-values.ts';

export { refId };

export type EntityRecord = Record<string, unknown>;

/**
 * docs/product-rules.md#states: the dialog edits a copy of the row, each value as its field type's `prepare` makes it
 * (dates as Dates, refs as identifiers, array refs as identifier lists, empty when absent;
 * contract/field-types/prepare-values.ts). The table's row object is never mutated.
 */
export function prepareRecord(model: ClientEntityModel, row: EntityRecord): EntityRecord {
  const copy: EntityRecord = structuredClone(row);
  for (const field of model.fields) {
    const prepare = fieldType(field.type).prepare;
    if (!prepare) continue;
    const value = copy[field.name];
    const prepared = prepare(value);
    if (prepared !== value) copy[field.name] = prepared;
  }
  return copy;
}

/** The identifier of a stored record. */
export function recordId(record: EntityRecord | null | undefined): string | null {
  return record ? refId(record) : null;
}
