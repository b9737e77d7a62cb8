import type { ClientEntityModel, FieldModel, FilterModel } from '../model/client-entity-model.ts';
import { compactRange, filterFieldType, isFilterRange, isRangeFilter, type FilterRange } from './filter-range.ts';

type Model = Pick<ClientEntityModel, 'filters' | 'fields'>;
const PREFIX = 'filter.';

function isList(filter: FilterModel, field: FieldModel | undefined): boolean {
  return filter.operator === 'in' || filter.operator === 'nin' || field?.type === 'array.ref';
}

/** The value a filter input holds, from its text in the address (the inverse of filterToText). */
function textToValue(text: string, filter: FilterModel, field: FieldModel | undefined): unknown {
  if (isList(filter, field)) return text.split(',').filter(Boolean);
  switch (filterFieldType(filter, field)) {
    case 'boolean': return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'number': case 'array.number': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number) ? number : undefined;
    }
    case 'date': {
      const date = new Date(text);
      return Number.isNaN(date.getTime()) ? undefined : date;
    }
    default: return text;
  }
}

function filterToText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.length ? value.map(String).join(',') : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  return String(value);
}

/**
 * Filter values a link carries (?filter.<field>=<value>, and ?filter.<field>.gte= / .lte= for a
 * number or date range, whose value is then { gte, lte }; e.g. /crud/bottrace?filter.status=<id>
 * from the unanswered questions), for the model's filter bar only: anything else in the query is
 * ignored, so a link can never filter on what the list does not offer. Values take the type of
 * their input (a boolean, a number, a date, a list); one that cannot is dropped.
 */
export function filtersFromSearch(model: Model, search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const fields = new Map(model.fields.map((field) => [field.name, field]));
  const values: Record<string, unknown> = {};
  for (const filter of model.filters) {
    const field = fields.get(filter.field);
    const read = (key: string) => {
      const text = params.get(key);
      return text === null || text === '' ? undefined : textToValue(text, filter, field);
    };
    if (isRangeFilter(filter, field)) {
      const range = rangeFromPlain(read(`${PREFIX}${filter.field}`) as FilterRange['gte'], filter.operator);
      const gte = read(`${PREFIX}${filter.field}.gte`) as FilterRange['gte'];
      const lte = read(`${PREFIX}${filter.field}.lte`) as FilterRange['lte'];
      const value = compactRange({ gte: gte ?? range.gte, lte: lte ?? range.lte });
      if (value) values[filter.field] = value;
      continue;
    }
    const value = read(`${PREFIX}${filter.field}`);
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) values[filter.field] = value;
  }
  return values;
}

/** What `filter.<field>=<value>` means for a range filter: its one operator's bound (eq: both). */
function rangeFromPlain(value: FilterRange['gte'], operator: FilterModel['operator']): FilterRange {
  if (value === undefined) return {};
  if (operator === 'gte') return { gte: value };
  if (operator === 'lte') return { lte: value };
  return { gte: value, lte: value };
}

/** The address parameters of a range: the plain form when the one operator says it, else .gte / .lte. */
function rangeToParams(range: FilterRange | null, operator: FilterModel['operator']): { plain?: string; gte?: string; lte?: string } {
  if (!range) return {};
  const gte = filterToText(range.gte);
  const lte = filterToText(range.lte);
  if (operator === 'eq' && gte !== undefined && gte === lte) return { plain: gte };
  if (operator === 'gte' && lte === undefined) return { plain: gte };
  if (operator === 'lte' && gte === undefined) return { plain: lte };
  return { gte, lte };
}

/**
 * The query string with the filter bar's state in it (filter.<field>=<value>, in the bar's order),
 * every other parameter kept, so the address can be shared or reloaded and shows the same list.
 * Unchanged values keep their place, so an address that already says it is returned as it was.
 */
export function searchWithFilters(model: Model, search: string, values: Record<string, unknown>): string {
  const params = new URLSearchParams(search);
  // Only the bar's own parameters change; any other filter.<name> is left as it came.
  const fields = new Map(model.fields.map((field) => [field.name, field]));
  const put = (key: string, text: string | undefined) => {
    if (text === undefined) params.delete(key);
    else if (params.get(key) !== text) params.set(key, text);
  };
  for (const filter of model.filters) {
    const key = `${PREFIX}${filter.field}`;
    const value = values[filter.field];
    if (isRangeFilter(filter, fields.get(filter.field))) {
      const parts = rangeToParams(isFilterRange(value) ? compactRange(value) : null, filter.operator);
      put(key, parts.plain);
      put(`${key}.gte`, parts.gte);
      put(`${key}.lte`, parts.lte);
      continue;
    }
    put(key, filterToText(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
