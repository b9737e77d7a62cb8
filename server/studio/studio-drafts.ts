import fs from 'node:fs';
import path from 'node:path';
import type { EntityModel, EntityModelMap } from '../../contract/model/entity-model.ts';
import { ENUMS_FILE, META_SCHEMA_FILE } from '../../generator/load/read-input.ts';
import type { GeneratorInput } from '../../generator/load/manifest-source.ts';
import { generate } from '../../generator/generate.ts';
import { ManifestValidationError, type ManifestIssue } from '../../generator/validate/manifest-issue.ts';
import { locateManifest, readManifests, readText, STUDIO_LOCALES, type ManifestLocation } from './studio-files.ts';
import { applyTexts, type LocaleTree, type StudioTexts } from './studio-texts.ts';

/** What a studio request proposes: one manifest (new or changed) and the texts of its locale keys. */
export interface StudioDraft {
  name: string;
  /**
   * The entity the draft was opened as (its saved "name"); absent, the draft's own name (a new
   * entity when no manifest holds it). A draft whose name differs from it is a rename, refused.
   */
  entity?: string;
  manifest: Record<string, unknown>;
  texts: StudioTexts;
}

export interface DraftResult {
  issues: ManifestIssue[];
  /** The models of every manifest with the draft in place (null while any issue stands). */
  models: EntityModelMap | null;
  /** The draft entity's form schemas as the generator emits them, for the live preview. */
  preview: { model: Omit<EntityModel, 'storage'>; schema: unknown; uiSchema: unknown } | null;
  /** The locale trees with the draft's texts in, and the manifest text to write. */
  locales: Record<string, LocaleTree>;
  /** The file the draft would be saved to: the one holding its entity (manifests/botTrace.json holds "bottrace"), or manifests/<name>.json for a new one. */
  file: string;
  /** That file's text now (null: a new entity's). */
  currentText: string | null;
}

/**
 * Runs the generator, as `npm run generate` does, on the project's files with the draft in place
 * of its manifest's file (or beside them, for a new entity): the same rules, the same messages,
 * the same paths. Nothing is written. Issues of other manifests are kept (a rename can break
 * another manifest's reference). A draft that cannot have a file of its own (a renamed entity, a
 * name whose file another entity's is, an entity two files hold) gets that one issue, at "name".
 */
export function checkDraft(root: string, draft: StudioDraft): DraftResult {
  const onDisk = readManifests(root);
  const entity = draft.entity ?? draft.name;
  const location = locateManifest(onDisk, entity);
  const locales: Record<string, LocaleTree> = {};
  for (const locale of STUDIO_LOCALES) {
    locales[locale] = applyTexts(parse(readText(root, `locales/${locale}.json`)) as LocaleTree, draft.texts, locale);
  }
  const { file } = location;
  const currentText = location.onDisk?.text ?? null;
  const identity = identityIssue(location, entity, draft.name);
  if (identity) return { issues: [identity], models: null, preview: null, locales, file, currentText };
  const others = onDisk.filter((m) => m.file !== file);
  const unreadable = others.filter((m) => m.json === undefined);
  if (unreadable.length > 0) {
    const issues = unreadable.map((m) => ({ file: m.file, path: '', message: `is not valid JSON: ${m.jsonError ?? 'unreadable'}`, fix: 'fix it in an editor (npm run generate names the line)' }));
    return { issues, models: null, preview: null, locales, file, currentText };
  }
  const manifests = others.map((m) => ({ file: m.file, json: m.json }));
  manifests.push({ file, json: draft.manifest });
  manifests.sort((a, b) => a.file.localeCompare(b.file));
  const input: GeneratorInput = {
    manifests,
    enums: { file: `manifests/${ENUMS_FILE}`, json: readEnums(root) },
    locales: Object.fromEntries(STUDIO_LOCALES.map((l) => [l, { file: `locales/${l}.json`, json: locales[l] }])),
  };
  try {
    const result = generate(input, readMetaSchema(root));
    const model = Object.values(result.models).find((m) => m.name === draft.name);
    let preview: DraftResult['preview'] = null;
    if (model) {
      const { storage: _storage, ...clientModel } = model;
      const emitted = (suffix: string) => result.files.get(`src/generated/schemas/${model.name}.${suffix}.json`);
      const schema = emitted('schema');
      const uiSchema = emitted('ui');
      if (schema && uiSchema) preview = { model: clientModel, schema: JSON.parse(schema), uiSchema: JSON.parse(uiSchema) };
    }
    return { issues: [], models: result.models, preview, locales, file, currentText };
  } catch (error) {
    if (error instanceof ManifestValidationError) return { issues: error.issues, models: null, preview: null, locales, file, currentText };
    throw error;
  }
}

/**
 * Why the draft cannot be saved as entity `entity` in `location`'s file, at its "name"; null when
 * it can. The studio does not rename an entity: its name is in its permissions, routes, locale
 * keys, other manifests' references and the roles that were granted it.
 */
export function identityIssue(location: ManifestLocation, entity: string, draftName: string): ManifestIssue | null {
  const { file, problem } = location;
  if (problem) return { file, path: 'name', message: problem.message, found: draftName, fix: problem.fix };
  if (draftName === entity) return null;
  if (location.onDisk) {
    return {
      file,
      path: 'name',
      message: `${file} holds the entity "${entity}"; the studio does not rename an entity (its permissions, routes, locale keys and the references to it use the name)`,
      found: draftName,
      expected: `"${entity}"`,
      fix: `put "name" back to "${entity}"; for an entity named "${draftName}", add a new entity`,
    };
  }
  return {
    file,
    path: 'name',
    message: `the draft's "name" is "${draftName}" but it is saved as the new entity "${entity}" (${file})`,
    found: draftName,
    expected: `"${entity}"`,
    fix: `use the same name in both (the manifest's "name" and the entity saved)`,
  };
}

function parse(text: string | null): unknown {
  return text === null ? {} : JSON.parse(text);
}

function readEnums(root: string): unknown {
  // enums.json and the meta-schema are read, never written, by the studio.
  return parse(readManifestsSibling(root, ENUMS_FILE));
}

function readMetaSchema(root: string): object {
  return parse(readManifestsSibling(root, META_SCHEMA_FILE)) as object;
}

function readManifestsSibling(root: string, name: string): string | null {
  try {
    return fs.readFileSync(path.join(root, 'manifests', name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The manifest's text as the studio writes it: two-space JSON and a final newline, like the shipped ones. */
export function manifestText(manifest: unknown): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
