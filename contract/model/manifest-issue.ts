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
