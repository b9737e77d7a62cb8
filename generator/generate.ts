import type { GeneratorInput } from './load/manifest-source.ts';
import type { LoadedManifest, Manifest, SharedEnums } from './model/manifest.ts';
import type { EntityModelMap } from '../contract/model/entity-model.ts';
import { buildModels } from './model/build-model.ts';
import { createMetaSchemaValidator } from './validate/validate-meta-schema.ts';
import { ManifestValidationError, type ManifestIssue } from './validate/manifest-issue.ts';
import { runRules } from './validate/manifest-rules.ts';
import { refineIssues } from './validate/refine-issues.ts';
import { readIconNames } from './load/read-icon-names.ts';
import { flattenKeys, type RuleContext } from './validate/rule-context.ts';
import { emitClient } from './emit/client/emit-client.ts';
import { emitServer } from './emit/server/emit-server.ts';
import { emitGraphql } from './emit/graphql/emit-graphql.ts';
import type { EmittedFiles } from './emit/emitted-files.ts';

export interface GenerateResult {
  models: EntityModelMap;
  files: EmittedFiles;
}

/**
 * load -> validate -> model -> emit, all in memory. Throws ManifestValidationError with every
 * problem found; nothing is written by this function, so a broken manifest never leaves partial output.
 */
export function generate(input: GeneratorInput, metaSchema: object): GenerateResult {
  const validateOne = createMetaSchemaValidator(metaSchema);
  const schemaIssues: ManifestIssue[] = input.manifests.flatMap(validateOne);
  // Cross-manifest rules assume the shape the meta-schema guarantees, so they run only once it holds.
  if (schemaIssues.length) throw new ManifestValidationError(refineIssues(schemaIssues, input));

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
  if (ruleIssues.length) throw new ManifestValidationError(refineIssues(ruleIssues, input));

  const models = buildModels(manifests, enums);
  const files: EmittedFiles = new Map([...emitClient(models, enums), ...emitServer(models), ...emitGraphql(models)]);
  return { models, files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))) };
}
