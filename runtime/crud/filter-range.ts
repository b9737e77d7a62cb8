import { fieldType } from '../../contract/field-types/field-types.ts';
import type { FieldType, FilterOperator } from '../../contract/model/entity-model.ts';
import type { FieldModel, FilterModel } from '../model/client-entity-model.ts';

/** A range filter's value: either bound may be missing (from / to, both inclusive). */
export interface FilterRange {
  gte?: number | Date;
  lte?: number | Date;
}

// System fields are not in the model's fields but a manifest may list them as filters (createdAt).
const SYSTEM_FIELD_TYPES: Record<string, FieldType> = { _id: 'string', createdAt: 'date', updatedAt: 'date' };
// The operators a range input replaces: the manifest's eq (one value) or one of the bounds.
const RANGE_OPERATORS = new Set<FilterOperator>(['eq', 'gte', 'lte']);

/** The field type a filter input reads: the field's, or a system field's. */
export function filterFieldType(filter: Pick<FilterModel, 'field'>, field: Pick<FieldModel, 'type'> | null | undefined): FieldType {
  return field?.type ?? SYSTEM_FIELD_TYPES[filter.field] ?? 'string';
}

/**
 * Whether the filter bar shows a from / to pair for the filter: the registry says the type's
 * values are ordered (numbers, timestamps) and hold one value, and the manifest asked for an
 * ordering operator (or none, eq being the default). A `ne` / `in` filter keeps its one input.
 */
export function isRangeFilter(filter: Pick<FilterModel, 'field' | 'operator'>, field: Pick<FieldModel, 'type'> | null | undefined): boolean {
  const definition = fieldType(filterFieldType(filter, field));
  const kind = definition.filter;
  return kind !== null && !definition.list && (kind.scalar === 'number' || kind.scalar === 'timestamp') && RANGE_OPERATORS.has(filter.operator);
}

export function isFilterRange(value: unknown): value is FilterRange {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
    && ('gte' in value || 'lte' in value);
}

/** The range with its empty bounds removed; null when neither is left. */
export function compactRange(range: FilterRange): FilterRange | null {
  const out: FilterRange = {};
  if (range.gte !== undefined && range.gte !== null) out.gte = range.gte;
  if (range.lte !== undefined && range.lte !== null) out.lte = range.lte;
  return out.gte === undefined && out.lte === undefined ? null : out;
}
