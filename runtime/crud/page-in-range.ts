/**
 * The page to show when the list's total changed under it: the same page while it still exists,
 * else the last one. Deleting the only row of the last page showed an empty page (issue 27).
 * `total` undefined (not loaded yet): the page as it is.
 */
export function pageInRange(page: number, pageSize: number, total: number | undefined): number {
  if (total === undefined) return page;
  const last = Math.max(1, Math.ceil(total / pageSize));
  return Math.min(page, last);
}
