import type { ManifestIssue } from '../../contract/model/manifest-issue.ts';

// The generator's messages and the schema studio's share this shape (contract/model/manifest-issue.ts).
export type { ManifestIssue };

export function formatIssue(issue: ManifestIssue): string {
  const where = issue.path ? `${issue.file}: ${issue.path}` : issue.file;
  const lines = [`${where}: ${issue.message}`];
  if (issue.found !== undefined) lines.push(`  found:    ${describeValue(issue.found)}`);
  if (issue.expected) lines.push(`  expected: ${issue.expected}`);
  if (issue.suggestion !== undefined) lines.push(`  did you mean ${JSON.stringify(issue.suggestion)}?`);
  if (issue.fix) lines.push(`  fix:      ${issue.fix}`);
  return lines.join('\n');
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A warning as the CLI prints it: the issue's lines, marked as not stopping the generation. */
export function formatWarning(issue: ManifestIssue): string {
  return `warning: ${formatIssue(issue)}`;
}

/** Thrown when generation must stop; carries every issue found, not just the first (and the warnings, printed too). */
export class ManifestValidationError extends Error {
  constructor(readonly issues: ManifestIssue[], readonly warnings: ManifestIssue[] = []) {
    super(`${issues.length} manifest problem${issues.length === 1 ? '' : 's'}:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'ManifestValidationError';
  }
}
