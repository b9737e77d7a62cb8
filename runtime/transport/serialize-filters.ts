import type { FilterInput } from '../clients/queries.ts';

/**
 * docs/product-rules.md#calls: `field;operator;value` joined by `|`. Empty values are dropped, dates become ISO strings
 * and arrays are comma-joined, so "in" / "nin" filters carry their list in one value.
 * Returns undefined when nothing is left, so callers can omit the query parameter.
 */
export function serializeFilters(filters: readonly FilterInput[] | undefined): string | undefined {
  if (!filters || filters.length === 0) return undefined;
  const parts: string[] = [];
  for (const filter of filters) {
    const value = serializeFilterValue(filter.value);
    if (value === undefined) continue;
    parts.push(`${filter.field};${filter.operator};${value}`);
  }
  return parts.length > 0 ? parts.join('|') : undefined;
}

function serializeFilterValue(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const items = value.map(serializeScalar).filter((item): item is string => item !== undefined);
    return items.length > 0 ? items.join(',') : undefined;
  }
  return serializeScalar(value);
}

function serializeScalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  // A populated reference ({ _id, name }) filters by its identifier.
  if (typeof value === 'object') {
    const id = (value as { _id?: unknown; id?: unknown })._id ?? (value as { id?: unknown }).id;
    return id === undefined || id === null ? undefined : String(id);
  }
  return undefined;
}
