// What the edit dialog does to a value as the API returns it before the form edits it
// (runtime/crud/prepare-record.ts reads each type's `prepare`). Pure: no React here.

/** A referenced record's identifier: _id, else id, else the value itself when already an id. */
export function refId(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof value === 'object') {
    const candidate = (value as { _id?: unknown })._id ?? (value as { id?: unknown }).id;
    return candidate === undefined || candidate === null ? null : String(candidate);
  }
  return null;
}

/** A date field edits a Date (null when the text is no date); empty values stay as they are. */
export function dateForForm(value: unknown): unknown {
  if (value === null || value === undefined || value === '' || value instanceof Date) return value;
  const date = new Date(value as string | number);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A populated ref edits its id (absent stays absent). */
export function refForForm(value: unknown): unknown {
  return value === undefined ? undefined : refId(value);
}

/** A populated ref list edits its ids; absent or broken: an empty list. */
export function refListForForm(value: unknown): string[] {
  return Array.isArray(value) ? value.map(refId).filter((id): id is string => id !== null) : [];
}
