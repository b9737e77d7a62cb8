/**
 * Rewrites list indices of a message path into the names of the items they point at, so
 * `fields[5].validation.format` reads `fields[website].validation.format`. An index stays a number
 * when its item has no name, or when its name is not unique in the list (the duplicate-name error).
 */
export function namedPath(root: unknown, path: string): string {
  if (!path) return path;
  let current: unknown = root;
  let out = '';
  for (const match of path.matchAll(/\[(\d+)\]|\.?([^.[\]]+)/g)) {
    if (match[1] !== undefined) {
      const list = Array.isArray(current) ? current : undefined;
      const item: unknown = list?.[Number(match[1])];
      const name = (item as { name?: unknown } | undefined)?.name;
      const unique = typeof name === 'string' && /^[A-Za-z0-9_-]+$/.test(name)
        && list!.filter((other) => (other as { name?: unknown } | null)?.name === name).length === 1;
      out += unique ? `[${name}]` : `[${match[1]}]`;
      current = item;
    } else {
      out += out ? `.${match[2]}` : match[2];
      current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[match[2]] : undefined;
    }
  }
  return out;
}
