import { HttpError, badRequest } from '../http/http-error.ts';
import type { EntityDefinition } from './entity-definition.ts';
import { parseFilters, readFilterArguments, type FilterArgument, type ParsedFilter } from './parse-filters.ts';

/** Largest page / find size; bigger reads go through export, which streams. */
export const MAX_LIMIT = 10_000;
/**
 * Longest search text. SQLite refuses a LIKE pattern over 50,000 bytes ("LIKE or GLOB pattern
 * too complex", a 500); a search that long finds nothing useful on either engine.
 */
export const MAX_SEARCH_CHARS = 1_000;

export interface ListQuery {
  /** 0 means no limit (export only). */
  limit: number;
  offset: number;
  orderBy: string | null;
  order: 'asc' | 'desc';
  search: string | null;
  filters: ParsedFilter[];
}

export type RawQuery = Record<string, string | undefined>;

export interface ListQueryDefaults {
  limit: number;
  /** Upper bound for limit; export allows any (0 = all). */
  maxLimit: number | null;
  paged: boolean;
  /**
   * Without an orderBy, order by the manifest's `table.defaultSort` (traces newest first,
   * conversations by last update). Defaults to true for bounded reads (pages, finds); the
   * unbounded export (maxLimit null) keeps storage order unless it says otherwise, so a full
   * export needs no sort.
   */
  manifestSort?: boolean;
}

/** Reads page, limit, orderBy, order, search and filters; every bad value is a 400 naming it. */
/** `typedFilters`: filters from a typed transport (GraphQL), read as such instead of `query.filters`. */
export function parseListQuery(definition: EntityDefinition, query: RawQuery, defaults: ListQueryDefaults, typedFilters?: readonly FilterArgument[]): ListQuery {
  const limit = readInteger(query.limit, 'limit', defaults.limit, defaults.maxLimit === null ? 0 : 1);
  if (defaults.maxLimit !== null && limit > defaults.maxLimit) {
    throw badRequest(`limit must be at most ${defaults.maxLimit}; got ${limit}`);
  }
  const page = defaults.paged ? readInteger(query.page, 'page', 1, 1) : 1;
  const direction = (query.order ?? 'asc').toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw badRequest(`order must be asc or desc; got "${query.order}"`);
  const requested = query.orderBy?.trim() || null;
  if (requested && !definition.model.sortFields.includes(requested)) {
    throw badRequest(`Cannot sort ${definition.model.name} by "${requested}" (allowed: ${definition.model.sortFields.join(', ')})`);
  }
  const fallback = (defaults.manifestSort ?? defaults.maxLimit !== null) ? definition.model.table.defaultSort : null;
  const orderBy = requested ?? fallback?.field ?? null;
  // An explicit order applies to the explicit field; the default field brings its own order.
  const order = requested || query.order !== undefined ? direction : (fallback?.order ?? 'asc');
  const search = query.search?.trim() || null;
  if (search !== null && search.length > MAX_SEARCH_CHARS) {
    throw new HttpError(400, `search must be at most ${MAX_SEARCH_CHARS} characters; got ${search.length}`, {
      i18nMessage: 'error.validation',
      inputErrors: [{ field: 'search', reason: 'validation.tooLong' }],
    });
  }
  return {
    limit,
    offset: (page - 1) * limit,
    orderBy,
    order,
    search,
    filters: typedFilters ? readFilterArguments(definition, typedFilters) : parseFilters(definition, query.filters),
  };
}

function readInteger(raw: string | undefined, name: string, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw badRequest(`${name} must be an integer >= ${min}; got "${raw}"`);
  }
  return value;
}
