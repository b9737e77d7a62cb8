import type { GeneratorInput } from '../load/manifest-source.ts';
import type { ManifestIssue } from './manifest-issue.ts';
import { namedPath } from './named-path.ts';
import { nearestName } from './nearest-name.ts';

// Rules and the meta-schema speak in indices and lists; people read names and want the nearest
// valid value. Done once here so every rule gets both without repeating the work.
const CANDIDATE_LIST = /(?:one of|a field of [^:]+|a field beside it): (.*)$/;

/** Names list items by their name in paths, and adds "did you mean" where a value was mistyped. */
export function refineIssues(issues: ManifestIssue[], input: GeneratorInput): ManifestIssue[] {
  const roots = new Map(input.manifests.map((source) => [source.file, source.json]));
  return issues.map((issue) => {
    const root = roots.get(issue.file);
    const refined = { ...issue, path: root === undefined ? issue.path : namedPath(root, issue.path) };
    if (refined.suggestion === undefined && typeof issue.found === 'string' && issue.expected) {
      const candidates = candidatesIn(issue.expected);
      const nearest = candidates.length ? nearestName(issue.found, candidates) : undefined;
      if (nearest !== undefined) refined.suggestion = nearest;
    }
    return refined;
  });
}

function candidatesIn(expected: string): string[] {
  const match = CANDIDATE_LIST.exec(expected.replace(/\s+\([^()]*\)$/, ''));
  if (!match) return [];
  return match[1].split(', ').map((item) => item.replace(/^"(.*)"$/, '$1')).filter(Boolean);
}
