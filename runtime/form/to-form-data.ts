type Json = Record<string, unknown>;

/**
 * The record as RJSF edits it: only the schema's own properties (ids, timestamps and populated
 * extras would fail additionalProperties), Dates as ISO strings, populated refs as their ids.
 */
export function toFormData(record: Json, schema: Json): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const data: Json = {};
  for (const name of Object.keys(properties)) {
    if (!(name in record)) continue;
    const value = toJsonValue(record[name]);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function toJsonValue(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Json).map(([key, item]) => [key, toJsonValue(item)]));
  }
  return value;
}
