import type { GeneratorInput } from './load/manifest-source.ts';
import type { LoadedManifest, Manifest, SharedEnums } from './model/manifest.ts';
import type { EntityModelMap } from '../contract/model/entity-model.ts';
import { buildModels } from './model/build-model.ts';
import { createMetaSchemaValidator } from './validate/validate-meta-schema.ts';
import { ManifestValidationError, type ManifestIssue } from './validate/manifest-issue.ts';
import { runRules } from './validate/manifest-rules.ts';
import { refineIssues } from './validate/refine-issues.ts';
import { readIconNames } from './load/read-icon-names.ts';
import { resolveManifestAliases } from '../contract/model/resolve-manifest-aliases.ts';
import { flattenKeys, type RuleContext } from './validate/rule-context.ts';
import { emitClient } from './emit/client/emit-client.ts';
import { emitServer } from './emit/server/emit-server.ts';
import { emitGraphql } from './emit/graphql/emit-graphql.ts';
import type { EmittedFiles } from './emit/emitted-files.ts';

export interface GenerateResult {
  models: EntityModelMap;
  files: EmittedFiles;
  /** Accepted, but to be changed: an old key name read as its current one (printed by the CLI). */
  warnings: ManifestIssue[];
}

/**
 * load -> validate -> model -> emit, all in memory. Throws ManifestValidationError with every
 * problem found; nothing is written by this function, so a broken manifest never leaves partial output.
 */
export function generate(given: GeneratorInput, metaSchema: object): GenerateResult {
  // Old key names are read as the current ones before anything else: the meta-schema and the
  // rules know only the current names.
  const aliases = given.manifests.map((source) => ({ file: source.file, ...resolveManifestAliases(source.file, source.json) }));
  const warnings = aliases.flatMap((resolved) => resolved.warnings);
  const input: GeneratorInput = { ...given, manifests: aliases.map(({ file, json }) => ({ file, json })) };
  const validateOne = createMetaSchemaValidator(metaSchema);
  const schemaIssues: ManifestIssue[] = [...aliases.flatMap((resolved) => resolved.issues), ...input.manifests.flatMap(validateOne)];
  // Cross-manifest rules assume the shape the meta-schema guarantees, so they run only once it holds.
  if (schemaIssues.length) throw new ManifestValidationError(refineIssues(schemaIssues, input), warnings);

  const manifests: LoadedManifest[] = input.manifests.map(({ file, json }) => ({ file, manifest: json as Manifest }));
  const enums = (input.enums.json ?? {}) as SharedEnums;
  const context: RuleContext = {
    manifests,
    byName: new Map(manifests.map((m) => [m.manifest.name, m])),
    enums,
    enumsFile: input.enums.file,
    icons: readIconNames(),
    locales: Object.fromEntries(
      Object.entries(input.locales).map(([locale, { file, json }]) => [locale, { file, keys: flattenKeys(json) }]),
    ),
  };
  const ruleIssues = runRules(context);
  if (ruleIssues.length) throw new ManifestValidationError(refineIssues(ruleIssues, input), warnings);

  const models = buildModels(manifests, enums);
  const files: EmittedFiles = new Map([...emitClient(models, enums), ...emitServer(models), ...emitGraphql(models)]);
  return { models, files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))), warnings };
}
