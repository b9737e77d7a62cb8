import type { EntityModelMap } from '../contract/model/entity-model.ts';
import { readInput, readMetaSchema } from './load/read-input.ts';
import { generate } from './generate.ts';
import { ManifestValidationError, formatIssue, formatWarning } from './validate/manifest-issue.ts';

/**
 * The models of the manifests under `root`, for the commands that compare them with the database
 * (`npm run generate -- --plan`, `npm run db:prune`); null after printing the problems when the
 * manifests do not validate.
 */
export function modelsFromManifests(root: string): EntityModelMap | null {
  try {
    const { models, warnings } = generate(readInput(root), readMetaSchema(root));
    for (const warning of warnings) console.error(formatWarning(warning));
    return models;
  } catch (error) {
    if (!(error instanceof ManifestValidationError)) throw error;
    for (const warning of error.warnings) console.error(formatWarning(warning));
    console.error(error.issues.map(formatIssue).join('\n\n'));
    console.error(`\n✖ ${error.issues.length} problem(s) in the manifests.`);
    return null;
  }
}
