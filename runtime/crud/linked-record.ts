/** A record a link asks the generic CRUD page to open, and in which dialog. */
export interface LinkedRecord {
  operation: 'view' | 'edit';
  id: string;
}

/** The query parameters that name a linked record, in the order they are read. */
const LINK_PARAMETERS = ['edit', 'view'] as const;

/** Ids are short; anything longer is not an id and is never sent to the server. */
const MAX_LINKED_ID_LENGTH = 200;

/**
 * The record a link to /crud/<entity> opens: ?edit=<id> in the edit dialog (e.g. a knowledge
 * base's page linking one source to the detailed editor), ?view=<id> in the view dialog (a
 * transcript's trace). Every entity's page supports both; edit wins when both are given.
 */
export function linkedRecordFromSearch(search: string): LinkedRecord | null {
  const params = new URLSearchParams(search);
  for (const operation of LINK_PARAMETERS) {
    const id = params.get(operation)?.trim();
    if (id && id.length <= MAX_LINKED_ID_LENGTH) return { operation, id };
  }
  return null;
}

/**
 * The query string without the linked record (?edit= and ?view=), for when its dialog closes: a
 * reload then shows the list, not the dialog again. Every other parameter (page, filters, sort)
 * is kept as written, in its order.
 */
export function searchWithoutLinkedRecord(search: string): string {
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '' && !(LINK_PARAMETERS as readonly string[]).includes(parameterName(part)));
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

function parameterName(part: string): string {
  const name = part.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    // Malformed escapes: not one of ours, kept as it is.
    return name;
  }
}
