import type { ClientEntityModel, FieldModel, FilterModel } from '../model/client-entity-model.ts';

type Model = Pick<ClientEntityModel, 'filters' | 'fields'>;
const PREFIX = 'filter.';

function isList(filter: FilterModel, field: FieldModel | undefined): boolean {
  return filter.operator === 'in' || filter.operator === 'nin' || field?.type === 'array.ref';
}

/** The value a filter input holds, from its text in the address (the inverse of filterToText). */
function textToValue(text: string, filter: FilterModel, field: FieldModel | undefined): unknown {
  if (isList(filter, field)) return text.split(',').filter(Boolean);
  switch (field?.type) {
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
 * Filter values a link carries (?filter.<field>=<value>, e.g. /crud/bottrace?filter.status=<id>
 * from the unanswered questions), for the model's filter bar only: anything else in the query is
 * ignored, so a link can never filter on what the list does not offer. Values take the type of
 * their input (a boolean, a number, a date, a list); one that cannot is dropped.
 */
export function filtersFromSearch(model: Model, search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const fields = new Map(model.fields.map((field) => [field.name, field]));
  const values: Record<string, unknown> = {};
  for (const filter of model.filters) {
    const text = params.get(`${PREFIX}${filter.field}`);
    if (text === null || text === '') continue;
    const value = textToValue(text, filter, fields.get(filter.field));
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) values[filter.field] = value;
  }
  return values;
}

/**
 * The query string with the filter bar's state in it (filter.<field>=<value>, in the bar's order),
 * every other parameter kept, so the address can be shared or reloaded and shows the same list.
 * Unchanged values keep their place, so an address that already says it is returned as it was.
 */
export function searchWithFilters(model: Model, search: string, values: Record<string, unknown>): string {
  const params = new URLSearchParams(search);
  // Only the bar's own parameters change; any other filter.<name> is left as it came.
  for (const filter of model.filters) {
    const text = filterToText(values[filter.field]);
    if (text === undefined) params.delete(`${PREFIX}${filter.field}`);
    else params.set(`${PREFIX}${filter.field}`, text);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
