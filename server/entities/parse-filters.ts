import { fieldType } from '../../contract/field-types/field-types.ts';
import { FILTER_OPERATORS, type FieldModel, type FilterOperator } from '../../contract/model/entity-model.ts';
import { badRequest } from '../http/http-error.ts';
import type { EntityDefinition } from './entity-definition.ts';

export interface ParsedFilter {
  column: string;
  operator: FilterOperator;
  /** One value, or the list for in / nin; coerced to the field's type. */
  value: unknown;
  /** The column holds a JSON list: eq / in mean "contains". */
  list: boolean;
}

const OPERATORS = new Set<string>(FILTER_OPERATORS);
/** Filters in one query. */
export const MAX_FILTERS = 50;
/** Values of one in / nin filter: each is a bound parameter, and SQLite takes at most 32,766 per statement. */
export const MAX_FILTER_VALUES = 1_000;
/** Characters of one filter value (a like pattern: SQLite refuses one over 50,000 bytes). */
export const MAX_FILTER_VALUE_CHARS = 1_000;
const LIST_OPERATORS = new Set<FilterOperator>(['eq', 'ne', 'in', 'nin']);
const ORDER_OPERATORS = new Set<FilterOperator>(['gt', 'gte', 'lt', 'lte']);

/** A filter as typed transports send it (GraphQL's FilterInput): the value is JSON, a list for in / nin. */
export interface FilterArgument {
  field: string;
  operator: string;
  value: unknown;
}

/**
 * Parses `field;operator;value` filters joined by `|` (docs/product-rules.md#calls). Only the model's filterFields
 * may be filtered; values are coerced per field type and anything malformed is a 400 that
 * names the offending filter.
 */
export function parseFilters(definition: EntityDefinition, raw: string | undefined): ParsedFilter[] {
  if (raw === undefined || raw.trim() === '') return [];
  const filters: ParsedFilter[] = [];
  for (const part of raw.split('|')) {
    if (part.trim() === '') continue;
    const first = part.indexOf(';');
    const second = first < 0 ? -1 : part.indexOf(';', first + 1);
    if (second < 0) throw badRequest(`Malformed filter "${part}": expected field;operator;value`);
    const field = part.slice(0, first).trim();
    const operator = part.slice(first + 1, second).trim();
    // The value is everything after the second ';', so values may contain ';'.
    const value = part.slice(second + 1);
    filters.push(buildFilter(definition, field, checkedOperator(definition, field, operator, part), value, part));
    if (filters.length > MAX_FILTERS) throw badRequest(`At most ${MAX_FILTERS} filters may be combined in one query`);
  }
  return filters;
}

/**
 * Reads typed filters (GraphQL) with the same rules and messages as the REST form, without
 * joining them into its string first: a value holding `|`, `;` or `,` stays one value. Values
 * that are empty (null, '', an empty list) are dropped, as the console's serializer drops them.
 */
export function readFilterArguments(definition: EntityDefinition, inputs: readonly FilterArgument[] | undefined): ParsedFilter[] {
  const filters: ParsedFilter[] = [];
  for (const input of inputs ?? []) {
    const part = `${input.field};${input.operator};${JSON.stringify(input.value)}`;
    const value = Array.isArray(input.value) ? input.value.map(filterText).filter((item): item is string => item !== undefined) : filterText(input.value);
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    filters.push(buildFilter(definition, input.field, checkedOperator(definition, input.field, input.operator, part), value, part));
    if (filters.length > MAX_FILTERS) throw badRequest(`At most ${MAX_FILTERS} filters may be combined in one query`);
  }
  return filters;
}

/** A typed filter value as the text the coercion reads (dates as ISO, refs by their id). */
function filterText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    const id = (value as { _id?: unknown })._id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  }
  return undefined;
}

function checkedOperator(definition: EntityDefinition, field: string, operator: string, part: string): FilterOperator {
  if (!definition.model.filterFields.includes(field)) {
    throw badRequest(`Unknown filter field "${field}" for ${definition.model.name} (allowed: ${definition.model.filterFields.join(', ')})`);
  }
  if (!OPERATORS.has(operator)) {
    throw badRequest(`Unknown filter operator "${operator}" in filter "${part}" (allowed: ${FILTER_OPERATORS.join(', ')})`);
  }
  return operator as FilterOperator;
}

/** `raw` is the REST text, or, from a typed transport, the text of each value of a list. */
function buildFilter(definition: EntityDefinition, field: string, operator: FilterOperator, raw: string | string[], part: string): ParsedFilter {
  const listed = operator === 'in' || operator === 'nin';
  const long = (Array.isArray(raw) ? raw : listed ? raw.split(',') : [raw]).find((text) => text.length > MAX_FILTER_VALUE_CHARS);
  if (long !== undefined) throw badRequest(`Filter on ${field}: a value may have at most ${MAX_FILTER_VALUE_CHARS} characters; got ${long.length}`);
  const kind = valueKind(definition, field);
  const list = kind.list;
  if (list && !LIST_OPERATORS.has(operator)) {
    throw badRequest(`Filter "${part}": operator ${operator} does not apply to the list field ${field}`);
  }
  if (Array.isArray(raw) && operator !== 'in' && operator !== 'nin') throw badRequest(`Filter "${part}": ${operator} takes one value, not a list`);
  if (operator === 'like') {
    if (kind.scalar !== 'string' || !kind.textual) throw badRequest(`Filter "${part}": like applies only to text fields`);
    return { column: field, operator, value: raw, list };
  }
  if (ORDER_OPERATORS.has(operator) && kind.scalar === 'boolean') {
    throw badRequest(`Filter "${part}": ${operator} does not apply to the boolean field ${field}`);
  }
  const coerce = (text: string) => coerceValue(kind.scalar, text, kind.values, part);
  if (operator === 'in' || operator === 'nin') {
    const items = (Array.isArray(raw) ? raw : raw.split(',')).map((item) => item.trim()).filter((item) => item !== '');
    if (items.length === 0) throw badRequest(`Filter "${part}": ${operator} needs at least one value`);
    if (items.length > MAX_FILTER_VALUES) throw badRequest(`Filter on ${field}: ${operator} takes at most ${MAX_FILTER_VALUES} values; got ${items.length}`);
    return { column: field, operator, value: items.map(coerce), list };
  }
  return { column: field, operator, value: coerce(raw as string), list };
}

type Scalar = 'string' | 'number' | 'boolean' | 'timestamp';

interface ValueKind {
  scalar: Scalar;
  list: boolean;
  values: string[] | null;
  /** Free text a "like" can search in (not ids). */
  textual: boolean;
}

function valueKind(definition: EntityDefinition, field: string): ValueKind {
  if (field === '_id') return { scalar: 'string', list: false, values: null, textual: false };
  if (field === 'createdAt' || field === 'updatedAt') return { scalar: 'timestamp', list: false, values: null, textual: false };
  const model: FieldModel | undefined = definition.fields.get(field);
  if (!model) {
    // The tenant column of a scoped entity is filterable only when declared as a field.
    throw badRequest(`Unknown filter field "${field}"`);
  }
  const list = model.type.startsWith('array.');
  const kind = fieldType(model.type).filter;
  if (!kind) throw badRequest(`Field "${field}" holds objects and cannot be filtered`);
  return { scalar: kind.scalar, list, values: kind.enumValues ? model.values : null, textual: kind.textual };
}

function coerceValue(scalar: Scalar, text: string, values: string[] | null, part: string): unknown {
  switch (scalar) {
    case 'number': {
      const number = text.trim() === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(number)) throw badRequest(`Filter "${part}": "${text}" is not a number`);
      return number;
    }
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw badRequest(`Filter "${part}": "${text}" is not true or false`);
    case 'timestamp': {
      const time = Date.parse(text);
      if (Number.isNaN(time)) throw badRequest(`Filter "${part}": "${text}" is not an ISO date`);
      return new Date(time).toISOString();
    }
    default:
      if (values && !values.includes(text)) {
        throw badRequest(`Filter "${part}": "${text}" is not one of ${values.join(', ')}`);
      }
      return text;
  }
}
