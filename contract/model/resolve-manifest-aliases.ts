import type { ManifestIssue } from './manifest-issue.ts';

/**
 * Manifest keys renamed since manifests were first written, old dotted path -> current one (a
 * rename within the same object). The old key is still read, with a warning, so an existing
 * manifest keeps working; the meta-schema, the model and the schema studio know only the current
 * name. docs/architecture.md "Names: one meaning each" says why each was renamed.
 */
const MANIFEST_ALIASES: Readonly<Record<string, string>> = {
  // "provider" means an outside service (LLM, embeddings, Google sign-in) only.
  'api.provider': 'api.endpoints',
};

export interface ResolvedAliases {
  /** The manifest with every old key under its current name (the input is not modified). */
  json: unknown;
  /** An old key was read: where it is and how to rename it. */
  warnings: ManifestIssue[];
  /** An old key and its current one both given, with different values: the manifest is refused. */
  issues: ManifestIssue[];
}

/**
 * Reads the old names of manifest keys as their current ones. When both are given with different
 * values the current one is kept and an issue names both (the generator refuses the manifest).
 */
export function resolveManifestAliases(file: string, json: unknown): ResolvedAliases {
  const warnings: ManifestIssue[] = [];
  const issues: ManifestIssue[] = [];
  let resolved = json;
  for (const [oldPath, currentPath] of Object.entries(MANIFEST_ALIASES)) {
    const oldSegments = oldPath.split('.');
    const currentKey = currentPath.split('.').at(-1)!;
    const oldKey = oldSegments.at(-1)!;
    const parentSegments = oldSegments.slice(0, -1);
    const parent = objectAt(resolved, parentSegments);
    if (!parent || !Object.hasOwn(parent, oldKey)) continue;
    const oldValue = parent[oldKey];
    let renamed: Record<string, unknown>;
    if (!Object.hasOwn(parent, currentKey)) {
      // In place of the old key, so a manifest written back (the schema studio) keeps its order.
      renamed = Object.fromEntries(Object.entries(parent).map(([key, value]) => (key === oldKey ? [currentKey, value] : [key, value])));
      warnings.push({ file, path: oldPath, message: `"${oldPath}" is the old name of "${currentPath}"; it is read as "${currentPath}" for now`, found: oldValue, fix: `rename it to ${currentPath}` });
    } else {
      const { [oldKey]: _old, ...rest } = parent;
      renamed = rest;
      if (JSON.stringify(parent[currentKey]) === JSON.stringify(oldValue)) {
        warnings.push({ file, path: oldPath, message: `"${oldPath}" is the old name of "${currentPath}", which is given too with the same value`, found: oldValue, fix: `remove ${oldPath}` });
      } else {
        issues.push({
          file,
          path: oldPath,
          message: `"${oldPath}" (the old name of "${currentPath}") is ${JSON.stringify(oldValue)} but "${currentPath}" is ${JSON.stringify(parent[currentKey])}`,
          found: oldValue,
          expected: `only "${currentPath}"`,
          fix: `remove ${oldPath} and keep the value you mean in ${currentPath}`,
        });
      }
    }
    resolved = withObjectAt(resolved, parentSegments, renamed);
  }
  return { json: resolved, warnings, issues };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(root: unknown, segments: string[]): Record<string, unknown> | null {
  let current = root;
  for (const segment of segments) current = isObject(current) ? current[segment] : undefined;
  return isObject(current) ? current : null;
}

/** A copy of `root` with the object at `segments` replaced (only the objects on the way are copied). */
function withObjectAt(root: unknown, segments: string[], value: Record<string, unknown>): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  const object = root as Record<string, unknown>;
  return { ...object, [head]: withObjectAt(object[head], rest, value) };
}
