import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GeneratorInput, ManifestSource } from './manifest-source.ts';
import { ManifestValidationError, type ManifestIssue } from '../validate/manifest-issue.ts';

export const META_SCHEMA_FILE = 'manifest.schema.json';
export const ENUMS_FILE = 'enums.json';
export const LOCALES = ['es', 'en'] as const;

/**
 * Reads every manifest, the shared enums and the locales under `root`.
 * Unparseable JSON is reported with line and column, for every broken file at once.
 */
export function readInput(root: string): GeneratorInput {
  const issues: ManifestIssue[] = [];
  const manifestDir = path.join(root, 'manifests');
  const names = readdirSync(manifestDir)
    .filter((name) => name.endsWith('.json') && name !== META_SCHEMA_FILE && name !== ENUMS_FILE)
    .sort();
  const manifests: ManifestSource[] = [];
  for (const name of names) {
    const file = `manifests/${name}`;
    const json = parseJsonFile(root, file, issues);
    if (json !== undefined) manifests.push({ file, json });
  }
  const enumsFile = `manifests/${ENUMS_FILE}`;
  const enums = { file: enumsFile, json: parseJsonFile(root, enumsFile, issues, {}) };
  const locales: GeneratorInput['locales'] = {};
  for (const locale of LOCALES) {
    const file = `locales/${locale}.json`;
    locales[locale] = { file, json: parseJsonFile(root, file, issues, {}) };
  }
  if (manifests.length === 0 && issues.length === 0) {
    issues.push({ file: 'manifests/', path: '', message: 'no manifest found', fix: 'add one <entity>.json per entity' });
  }
  if (issues.length) throw new ManifestValidationError(issues);
  return { manifests, enums, locales };
}

export function readMetaSchema(root: string): object {
  return JSON.parse(readFileSync(path.join(root, 'manifests', META_SCHEMA_FILE), 'utf8')) as object;
}

function parseJsonFile(root: string, file: string, issues: ManifestIssue[], missing?: unknown): unknown {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (error) {
    if (missing !== undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') return missing;
    issues.push({ file, path: '', message: `cannot read the file (${(error as Error).message})` });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    issues.push({
      file,
      path: '',
      message: `is not valid JSON: ${message}${locate(text, message)}`,
      fix: 'correct the JSON syntax (a missing comma, quote or bracket is the usual cause)',
    });
    return undefined;
  }
}

/** Node reports "at position N"; people read lines and columns. */
function locate(text: string, message: string): string {
  const match = /position (\d+)/.exec(message);
  if (!match) return '';
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}
