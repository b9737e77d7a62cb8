import type { ClientEntityModel } from '../model/client-entity-model.ts';

/**
 * Filter values a link carries (?filter.<field>=<value>, e.g. /crud/bottrace?filter.status=<id>
 * from the unanswered questions), for the model's declared filters only: anything else in the
 * query is ignored, so a link can never filter on what the list does not offer.
 */
export function filtersFromSearch(model: Pick<ClientEntityModel, 'filters'>, search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const values: Record<string, unknown> = {};
  for (const filter of model.filters) {
    const value = params.get(`filter.${filter.field}`);
    if (value !== null && value !== '') values[filter.field] = value;
  }
  return values;
}
