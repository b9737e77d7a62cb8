/** One problem found in a manifest: where it is, what was there, what was expected, how to fix it. */
export interface ManifestIssue {
  /** Path relative to the project root, e.g. manifests/bot.json. */
  file: string;
  /** Dotted JSON path inside the file, e.g. fields[2].ref.entity; '' for the whole file. */
  path: string;
  message: string;
  found?: unknown;
  expected?: string;
  fix?: string;
  /** The nearest valid value to a typo, shown as `did you mean "string"?`. */
  suggestion?: string;
  /** A locale key the manifest names and a locale file lacks (the CLI prints one command adding them all). */
  missingLocaleKey?: string;
}

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

/** Thrown when generation must stop; carries every issue found, not just the first. */
export class ManifestValidationError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(`${issues.length} manifest problem${issues.length === 1 ? '' : 's'}:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'ManifestValidationError';
  }
}
