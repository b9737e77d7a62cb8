import fs from 'node:fs';
import path from 'node:path';
import type { EntityModel, EntityModelMap } from '../../contract/model/entity-model.ts';
import { ENUMS_FILE, META_SCHEMA_FILE } from '../../generator/load/read-input.ts';
import type { GeneratorInput } from '../../generator/load/manifest-source.ts';
import { generate } from '../../generator/generate.ts';
import { ManifestValidationError, type ManifestIssue } from '../../generator/validate/manifest-issue.ts';
import { listManifestFiles, readText, STUDIO_LOCALES } from './studio-files.ts';
import { applyTexts, type LocaleTree, type StudioTexts } from './studio-texts.ts';

/** What a studio request proposes: one manifest (new or changed) and the texts of its locale keys. */
export interface StudioDraft {
  name: string;
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
}

/**
 * Runs the generator, as `npm run generate` does, on the project's files with the draft in place
 * of (or beside) its manifest: the same rules, the same messages, the same paths. Nothing is
 * written. Issues of other manifests are kept (a rename can break another manifest's reference).
 */
export function checkDraft(root: string, draft: StudioDraft): DraftResult {
  const draftFile = `manifests/${draft.name}.json`;
  const manifests = listManifestFiles(root)
    .filter((file) => file !== draftFile)
    .map((file) => ({ file, json: parse(readText(root, file)) }));
  manifests.push({ file: draftFile, json: draft.manifest });
  manifests.sort((a, b) => a.file.localeCompare(b.file));
  const locales: Record<string, LocaleTree> = {};
  for (const locale of STUDIO_LOCALES) {
    locales[locale] = applyTexts(parse(readText(root, `locales/${locale}.json`)) as LocaleTree, draft.texts, locale);
  }
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
      const file = (suffix: string) => result.files.get(`src/generated/schemas/${model.name}.${suffix}.json`);
      const schema = file('schema');
      const uiSchema = file('ui');
      if (schema && uiSchema) preview = { model: clientModel, schema: JSON.parse(schema), uiSchema: JSON.parse(uiSchema) };
    }
    return { issues: [], models: result.models, preview, locales };
  } catch (error) {
    if (error instanceof ManifestValidationError) return { issues: error.issues, models: null, preview: null, locales };
    throw error;
  }
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
