import type { ClientEntityModel, FieldModel } from '../model/client-entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import type { CellKind } from '../../contract/field-types/field-type-definition.ts';
import type { Can } from '../permissions/permissions-context.tsx';

/** A list column: a declared field, or a system field every record carries. */
export interface TableColumnSpec {
  name: string;
  label: string;
  field: FieldModel | null;
  /** How the cell draws the value: the field type's cell kind (contract/field-types), or a system column's. */
  kind: CellKind | 'systemDate' | 'systemId';
  sortable: boolean;
}

const SYSTEM_COLUMNS: Record<string, Omit<TableColumnSpec, 'name' | 'sortable'>> = {
  _id: { label: 'common.id', field: null, kind: 'systemId' },
  createdAt: { label: 'common.createdAt', field: null, kind: 'systemDate' },
  updatedAt: { label: 'common.updatedAt', field: null, kind: 'systemDate' },
};

/**
 * The model's table columns the user may see: a field with a permission is hidden without it,
 * and a column naming neither a field nor a system field is a generator bug, reported loudly.
 */
export function visibleColumns(model: ClientEntityModel, can: Can): TableColumnSpec[] {
  const byName = new Map(model.fields.map((field) => [field.name, field]));
  const columns: TableColumnSpec[] = [];
  for (const name of model.table.columns) {
    const field = byName.get(name);
    const sortable = model.sortFields.includes(name);
    if (field) {
      if (field.column.hidden || (field.permission && !can(field.permission))) continue;
      columns.push({ name, label: field.label, field, kind: fieldType(field.type).cell, sortable });
      continue;
    }
    const system = SYSTEM_COLUMNS[name];
    if (!system) throw new Error(`Table column "${name}" of entity "${model.name}" is not a field`);
    columns.push({ name, sortable, ...system });
  }
  return columns;
}

/** Model filters the user may use (docs/product-rules.md#screens: filters with a permission are hidden without it). */
export function visibleFilters(model: ClientEntityModel, can: Can) {
  const byName = new Map(model.fields.map((field) => [field.name, field]));
  return model.filters
    .filter((filter) => !filter.permission || can(filter.permission))
    .map((filter) => ({ filter, field: byName.get(filter.field) ?? null }));
}
