import { MAX_BULK_DELETE, type BulkDeleteOutcome, type BulkDeleteReport } from '../../contract/endpoints/bulk-delete.ts';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import type { FilterInput } from '../clients/queries.ts';
import { serializeFilters } from '../transport/serialize-filters.ts';

/** What to delete: chosen ids, or every record matching the list's search and filters. */
export type BulkDeleteTarget = { kind: 'ids'; ids: string[] } | { kind: 'matching'; search?: string; filters?: FilterInput[]; expected: number };

/** The outcome of a whole bulk delete, as the dialog reports it. */
export interface BulkDeleteRun {
  deleted: number;
  /** Records the server refused, each with its reason. */
  refused: BulkDeleteOutcome[];
  /**
   * A request that failed as a whole (network, 413 too many, 500): the ids it carried may or may
   * not have been deleted, and later batches were not sent. Null when every batch answered.
   */
  unfinished: { ids: string[]; error: unknown } | null;
}

/**
 * Runs a bulk delete through the entity's bulk endpoint, chosen ids in batches the server accepts.
 * It never stops without saying so: a failed batch ends the run with `unfinished` naming what
 * was not confirmed, beside every outcome the earlier batches reported.
 */
export async function runBulkDelete(entityClient: AnyEntityClient, target: BulkDeleteTarget): Promise<BulkDeleteRun> {
  const run: BulkDeleteRun = { deleted: 0, refused: [], unfinished: null };
  const add = (report: BulkDeleteReport) => {
    run.deleted += report.deleted;
    run.refused.push(...report.results.filter((result) => !result.deleted));
  };
  if (target.kind === 'matching') {
    try {
      add(await entityClient.bulkDelete({ body: { matching: { search: target.search || undefined, filters: serializeFilters(target.filters), expected: target.expected } } }));
    } catch (error) {
      run.unfinished = { ids: [], error };
    }
    return run;
  }
  for (let start = 0; start < target.ids.length; start += MAX_BULK_DELETE) {
    const ids = target.ids.slice(start, start + MAX_BULK_DELETE);
    try {
      add(await entityClient.bulkDelete({ body: { ids } }));
    } catch (error) {
      run.unfinished = { ids: target.ids.slice(start), error };
      break;
    }
  }
  return run;
}
