import path from 'node:path';
import { readInput, readMetaSchema } from '../../../generator/load/read-input.ts';
import type { GeneratorInput } from '../../../generator/load/manifest-source.ts';
import { generate } from '../../../generator/generate.ts';
import { ManifestValidationError, formatIssue, type ManifestIssue } from '../../../generator/validate/manifest-issue.ts';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const pristine = readInput(ROOT);
export const metaSchema = readMetaSchema(ROOT);

/** A deep copy of the real manifests, enums and locales, safe to break. */
export function realInput(): GeneratorInput {
  return structuredClone(pristine);
}

// Manifests are plain JSON; tests poke at them freely.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function manifest(input: GeneratorInput, name: string): Json {
  const found = input.manifests.find((m) => m.file === `manifests/${name}.json`);
  if (!found) throw new Error(`no manifest ${name}`);
  return found.json;
}

/** Runs the generator on the input and returns the issues it refused it with. */
export function issuesOf(input: GeneratorInput): ManifestIssue[] {
  try {
    generate(input, metaSchema);
  } catch (error) {
    if (error instanceof ManifestValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected the generator to refuse the input, it accepted it');
}

/** Breaks one manifest and returns the formatted messages. */
export function messagesAfter(name: string, breakIt: (m: Json, input: GeneratorInput) => void): string[] {
  const input = realInput();
  breakIt(manifest(input, name), input);
  return issuesOf(input).map(formatIssue);
}
