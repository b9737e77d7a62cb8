/**
 * The bulk delete of every deletable generic entity (POST <basePath>/bulk-delete), shared by the
 * server (server/entities/bulk-delete.ts), the console's REST transport and the OpenAPI document.
 * Code under contract/ may import nothing from server/, src/ or runtime/.
 */

/** Records one request may delete: each is its own delete (hooks, in-use check, transaction). */
export const MAX_BULK_DELETE = 1000;

/**
 * Either the chosen ids, or every record matching a list query (the table's "all matching the
 * filter"; no search nor filters is every record the caller reaches). `expected` is the count the
 * user confirmed: when the query now matches another number, nothing is deleted (409), so a
 * list that changed meanwhile is never deleted unseen.
 */
export type BulkDeleteRequest =
  | { ids: string[] }
  | { matching: { search?: string; filters?: string; expected: number } };

/** Why one record was not deleted: the error the single delete would have answered. */
export interface BulkDeleteFailure {
  status: number;
  message: string;
  i18nMessage?: string;
  i18nParams?: Record<string, unknown>;
}

export interface BulkDeleteOutcome {
  id: string;
  /** The record's display field as the caller reads it (its id when it has none or is not found). */
  label: string;
  deleted: boolean;
  error?: BulkDeleteFailure;
}

/** Every record asked for has an outcome, in the order asked (ids) or listed (matching). */
export interface BulkDeleteReport {
  deleted: number;
  failed: number;
  results: BulkDeleteOutcome[];
}
