/** A record a link asks the generic CRUD page to open, and in which dialog. */
export interface LinkedRecord {
  operation: 'view' | 'edit';
  id: string;
}

/** Ids are short; anything longer is not an id and is never sent to the server. */
const MAX_LINKED_ID_LENGTH = 200;

/**
 * The record a link to /crud/<entity> opens: ?edit=<id> in the edit dialog (e.g. a knowledge
 * base's page linking one source to the detailed editor), ?view=<id> in the view dialog (a
 * transcript's trace). Every entity's page supports both; edit wins when both are given.
 */
export function linkedRecordFromSearch(search: string): LinkedRecord | null {
  const params = new URLSearchParams(search);
  for (const operation of ['edit', 'view'] as const) {
    const id = params.get(operation)?.trim();
    if (id && id.length <= MAX_LINKED_ID_LENGTH) return { operation, id };
  }
  return null;
}
