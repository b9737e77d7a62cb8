import type { ClientEntityModel } from '../model/client-entity-model.ts';

export type EntityRecord = Record<string, unknown>;

/** A referenced record's identifier: _id, else id (spec §3), else the value itself when already an id. */
export function refId(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof value === 'object') {
    const candidate = (value as { _id?: unknown })._id ?? (value as { id?: unknown }).id;
    return candidate === undefined || candidate === null ? null : String(candidate);
  }
  return null;
}

/**
 * Spec §4: the dialog edits a copy of the row, with date fields as Dates, refs as identifiers and
 * array refs as identifier lists (empty when absent). The table's row object is never mutated.
 */
export function prepareRecord(model: ClientEntityModel, row: EntityRecord): EntityRecord {
  const copy: EntityRecord = structuredClone(row);
  for (const field of model.fields) {
    const value = copy[field.name];
    switch (field.type) {
      case 'date':
        if (value !== null && value !== undefined && value !== '' && !(value instanceof Date)) {
          const date = new Date(value as string | number);
          copy[field.name] = Number.isNaN(date.getTime()) ? null : date;
        }
        break;
      case 'ref':
        if (value !== undefined) copy[field.name] = refId(value);
        break;
      case 'array.ref':
        copy[field.name] = Array.isArray(value) ? value.map(refId).filter((id): id is string => id !== null) : [];
        break;
      default:
        break;
    }
  }
  return copy;
}

/** The identifier of a stored record. */
export function recordId(record: EntityRecord | null | undefined): string | null {
  return record ? refId(record) : null;
}
