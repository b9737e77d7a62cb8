import { MAX_BULK_DELETE, type BulkDeleteOutcome, type BulkDeleteReport } from '../../contract/endpoints/bulk-delete.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { EntityDefinition } from './entity-definition.ts';
import type { EntityService } from './entity-service.ts';
import { parseListQuery } from './list-query.ts';

/** What the body may hold; anything else is named in the 400. */
const BODY_KEYS = new Set(['ids', 'matching']);
const MATCHING_KEYS = new Set(['search', 'filters', 'expected']);

/**
 * Deletes the records a body names (ids, or every record matching a list query), each through
 * the service's own delete: the caller's scope, the writer rule, the beforeDelete hooks (identity's
 * access rules) and the in-use check apply per record, and each is its own transaction. A refused
 * record does not stop the others; every record gets an outcome, so nothing is left half-done
 * without saying which. More than MAX_BULK_DELETE records is refused before anything is deleted.
 */
export async function bulkDelete(
  service: EntityService,
  definition: EntityDefinition,
  context: RequestContext,
  body: unknown,
  log?: { error: (details: object, message: string) => void },
): Promise<BulkDeleteReport> {
  const entity = definition.model.name;
  const ids = await targetIds(service, definition, context, body);
  // Display names as the caller reads them, before they are gone (one query, refs not populated).
  const records = await service.findByIds(entity, context, ids, { populate: false });
  const labels = new Map(records.map((record) => [String(record._id), record[definition.model.displayField]]));
  const results: BulkDeleteOutcome[] = [];
  for (const id of ids) {
    const shown = labels.get(id);
    const label = typeof shown === 'string' && shown !== '' ? shown : shown === undefined || shown === null ? id : String(shown);
    try {
      await service.delete(entity, context, id);
      results.push({ id, label, deleted: true });
    } catch (error) {
      if (!(error instanceof HttpError)) log?.error({ err: error, entity, id }, 'bulk delete: one record failed unexpectedly');
      results.push({ id, label, deleted: false, error: failure(error) });
    }
  }
  const deleted = results.filter((result) => result.deleted).length;
  return { deleted, failed: results.length - deleted, results };
}

function failure(error: unknown): NonNullable<BulkDeleteOutcome['error']> {
  if (!(error instanceof HttpError)) return { status: 500, message: 'Unexpected server error; the record was not deleted', i18nMessage: 'error.server' };
  const params = error.details?.i18nParams;
  return {
    status: error.statusCode,
    message: error.message,
    ...(error.i18nMessage ? { i18nMessage: error.i18nMessage } : {}),
    ...(params && typeof params === 'object' ? { i18nParams: params as Record<string, unknown> } : {}),
  };
}

function tooMany(count: number, what: string): HttpError {
  return new HttpError(413, `${what} ${count} records; a bulk delete takes at most ${MAX_BULK_DELETE}. Narrow the filter or select fewer rows, then repeat.`, {
    i18nMessage: 'error.bulkTooMany',
    details: { i18nParams: { count, max: MAX_BULK_DELETE } },
  });
}

async function targetIds(service: EntityService, definition: EntityDefinition, context: RequestContext, body: unknown): Promise<string[]> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object: {"ids": ["<id>", ...]} or {"matching": {"search"?: "...", "filters"?: "field;operator;value|..."}}');
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !BODY_KEYS.has(key));
  if (unknown !== undefined) throw badRequest(`Unknown member "${unknown}" in the bulk delete body (allowed: ids, or matching)`);
  if ((input.ids === undefined) === (input.matching === undefined)) {
    throw badRequest('Give exactly one of "ids" (the records to delete) or "matching" (a list query: every record it matches)');
  }
  if (input.ids !== undefined) {
    if (!Array.isArray(input.ids)) throw badRequest('"ids" must be a list of record ids');
    if (input.ids.length === 0) throw badRequest('"ids" is empty: name at least one record to delete');
    if (input.ids.length > MAX_BULK_DELETE) throw tooMany(input.ids.length, 'The body names');
    const bad = input.ids.findIndex((id) => typeof id !== 'string' || id.trim() === '' || id.length > 200);
    if (bad >= 0) throw badRequest(`ids[${bad}] must be a non-empty record id of at most 200 characters; got ${JSON.stringify(input.ids[bad])?.slice(0, 60)}`);
    return [...new Set(input.ids as string[])];
  }
  const matching = input.matching;
  if (typeof matching !== 'object' || matching === null || Array.isArray(matching)) {
    throw badRequest('"matching" must be an object: {"search"?: "...", "filters"?: "field;operator;value|...", "expected": <the count confirmed>}');
  }
  const query = matching as Record<string, unknown>;
  const extra = Object.keys(query).find((key) => !MATCHING_KEYS.has(key));
  if (extra !== undefined) throw badRequest(`Unknown member "matching.${extra}" (allowed: search, filters, expected)`);
  for (const key of ['search', 'filters']) {
    if (query[key] !== undefined && typeof query[key] !== 'string') throw badRequest(`"matching.${key}" must be a string`);
  }
  const expected = query.expected;
  if (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 0) {
    throw badRequest('"matching.expected" must be the number of records the user confirmed (an integer >= 0)');
  }
  // One more than allowed tells "too many" without reading them all.
  const list = parseListQuery(
    definition,
    { search: query.search as string | undefined, filters: query.filters as string | undefined, limit: String(MAX_BULK_DELETE + 1) },
    { limit: MAX_BULK_DELETE + 1, maxLimit: MAX_BULK_DELETE + 1, paged: false },
  );
  const rows = await service.find(definition.model.name, context, list, { populate: false });
  if (rows.length > MAX_BULK_DELETE) {
    const { total } = await service.paginate(definition.model.name, context, { ...list, limit: 1, offset: 0 });
    throw tooMany(total, 'The filter matches');
  }
  if (rows.length !== expected) {
    throw new HttpError(409, `The query now matches ${rows.length} records, not the ${expected} confirmed; nothing was deleted. Reload the list and confirm again.`, {
      i18nMessage: 'error.bulkChanged',
      details: { i18nParams: { count: rows.length, expected } },
    });
  }
  return rows.map((row) => String(row._id));
}
