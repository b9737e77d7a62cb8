/** A manifest file as read from disk, before validation. */
export interface ManifestSource {
  /** Path relative to the project root (manifests/bot.json). */
  file: string;
  json: unknown;
}

/** Everything the generator reads: manifests, shared enums and both locale files. */
export interface GeneratorInput {
  manifests: ManifestSource[];
  enums: { file: string; json: unknown };
  locales: Record<string, { file: string; json: unknown }>;
}
