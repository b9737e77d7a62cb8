import type { FieldModel } from '../../generator/model/entity-model.ts';

/**
 * The text of one CSV cell: refs show their display value (what a person reads), lists and
 * objects their JSON, booleans true/false, nothing an empty cell.
 */
export function csvCell(field: FieldModel | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field?.ref) {
    const display = field.ref.display;
    if (field.type === 'array.ref') {
      return JSON.stringify((value as Record<string, unknown>[]).map((item) => item?.[display] ?? item?._id ?? null));
    }
    const ref = value as Record<string, unknown>;
    const shown = ref[display] ?? ref._id;
    return shown === null || shown === undefined ? '' : String(shown);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
