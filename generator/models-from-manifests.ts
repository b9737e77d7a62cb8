import type { EntityModelMap } from '../contract/model/entity-model.ts';
import { readInput, readMetaSchema } from './load/read-input.ts';
import { generate } from './generate.ts';
import { ManifestValidationError, formatIssue } from './validate/manifest-issue.ts';

/**
 * The models of the manifests under `root`, for the commands that compare them with the database
 * (`npm run generate -- --plan`, `npm run db:prune`); null after printing the problems when the
 * manifests do not validate.
 */
export function modelsFromManifests(root: string): EntityModelMap | null {
  try {
    return generate(readInput(root), readMetaSchema(root)).models;
  } catch (error) {
    if (!(error instanceof ManifestValidationError)) throw error;
    console.error(error.issues.map(formatIssue).join('\n\n'));
    console.error(`\n✖ ${error.issues.length} problem(s) in the manifests.`);
    return null;
  }
}
