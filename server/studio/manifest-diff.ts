/** One difference between two manifests, at a named path (fields[website].type, as the generator's messages). */
export interface ManifestChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const MAX_CHANGES = 500;

/**
 * The differences between two JSON documents, deepest first-differing path per change. Items of
 * arrays of named objects (fields, tabs) are matched by name, so reordering or inserting one
 * field does not read as every later field changed; a moved item is reported once ("order").
 */
export function diffManifests(before: unknown, after: unknown): ManifestChange[] {
  const out: ManifestChange[] = [];
  walk(before, after, '', out);
  return out.slice(0, MAX_CHANGES);
}

function walk(a: unknown, b: unknown, at: string, out: ManifestChange[]): void {
  if (out.length >= MAX_CHANGES) return;
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a === undefined) return void out.push({ path: at, kind: 'added', after: b });
  if (b === undefined) return void out.push({ path: at, kind: 'removed', before: a });
  if (Array.isArray(a) && Array.isArray(b)) {
    const named = (list: unknown[]) => list.every((item) => item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string');
    if (named(a) && named(b)) {
      const nameOf = (item: unknown) => (item as { name: string }).name;
      const before = new Map(a.map((item) => [nameOf(item), item]));
      const after = new Map(b.map((item) => [nameOf(item), item]));
      for (const [name, item] of before) walk(item, after.get(name), `${at}[${name}]`, out);
      for (const [name, item] of after) if (!before.has(name)) walk(undefined, item, `${at}[${name}]`, out);
      const order = (list: unknown[], keep: Map<string, unknown>) => list.map(nameOf).filter((n) => keep.has(n));
      if (JSON.stringify(order(a, after)) !== JSON.stringify(order(b, before))) out.push({ path: `${at} (order)`, kind: 'changed', before: a.map(nameOf), after: b.map(nameOf) });
      return;
    }
    return void out.push({ path: at, kind: 'changed', before: a, after: b });
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[key], b[key], at ? `${at}.${key}` : key, out);
    return;
  }
  out.push({ path: at, kind: 'changed', before: a, after: b });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
