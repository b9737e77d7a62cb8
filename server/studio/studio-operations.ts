import fs from 'node:fs';
import path from 'node:path';
import type { FeatureDependencies } from '../http/server-features.ts';
import { HttpError } from '../http/http-error.ts';
import type { OperationAccess, Operation } from '../operations/define-operation.ts';
import { formatPlan, planMigrations, type MigrationPlan, type MigrationStep } from '../db/plan-migrations.ts';
import { diffManifests } from './manifest-diff.ts';
import { checkDraft, identityIssue, manifestText, type StudioDraft } from './studio-drafts.ts';
import { ENTITY_NAME, locateManifest, readManifests, readText, restoreFiles, STUDIO_LOCALES, versionOf, writeFilesAtomically, type ManifestLocation } from './studio-files.ts';
import { changedTexts, textsOfManifest, textsProblem, TextConflictError, type LocaleTree, type StudioTexts } from './studio-texts.ts';
import type { StudioConfig } from './studio-config.ts';
import { liveApply } from '../dev/live-apply.ts';
import { NO_LIVE_CHANGES, type LiveModelChanges } from './live-model-route.ts';
import type { EntityModel, EntityModelMap } from '../../contract/model/entity-model.ts';
import { resolveManifestAliases } from '../../contract/model/resolve-manifest-aliases.ts';
import { entities as generatedEntities } from '../generated/entities.ts';
import { buildInputSchema } from '../../generator/emit/json-schema.ts';
import { menuGroupsOf, uiSchema } from '../../generator/emit/client/emit-client.ts';

/** The permission of every studio operation (declared in manifests/setting.json's permissions.extra; the seeded Admin holds it). */
export const SCHEMA_MANAGE = 'schema:manage';
const NEEDS_SCHEMA_MANAGE: OperationAccess = [{ entity: 'studio', action: 'update', permission: SCHEMA_MANAGE, alternatives: [] }];

export interface StudioSaveInput {
  name: string;
  /** The draft as sent: { manifest, texts }. */
  body: unknown;
  /** The version the user edited (If-Match), or null. */
  ifMatch: string | null;
  /** A new entity (If-None-Match: *). */
  creating: boolean;
  /** Where the save is logged (the request's logger, with its id). */
  log: { info(details: object, message: string): void };
}

export interface StudioOperations {
  list: Operation<void, unknown>;
  read: Operation<{ name: string }, { version: string | null } & Record<string, unknown>>;
  validate: Operation<{ body: unknown }, unknown>;
  plan: Operation<{ body: unknown }, unknown>;
  save: Operation<StudioSaveInput, { version: string | null } & Record<string, unknown>>;
  liveModel: Operation<void, LiveModelChanges>;
}

/**
 * The schema studio's operations (README.md "Schema studio"): read the manifests, check a draft
 * with the generator's own rules, show the plan of a save, and save it. Each needs schema:manage
 * and checks it itself (server/operations); the routes in studio-feature.ts only adapt HTTP.
 */
export function createStudioOperations(deps: FeatureDependencies): StudioOperations {
  const config: StudioConfig = deps.featureConfig.studio;
  const { root } = config;
  const define = deps.defineOperation;
  const locate = (name: string) => locateIn(root, name);
  // One save at a time in this process: the version check and the write are one step.
  let saving: Promise<unknown> = Promise.resolve();
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const next = saving.then(work, work);
    saving = next.catch(() => undefined);
    return next;
  };

  const list = define(NEEDS_SCHEMA_MANAGE, async () => {
    const trees = readLocales(root);
    // Each under its entity name (its "name"), with the file that holds it: botTrace.json holds "bottrace".
    const manifests = readManifests(root).map(({ file, text, json, jsonError, name }) => {
      const manifest = json && typeof json === 'object' && !Array.isArray(json) ? currentKeys(file, json as Record<string, unknown>) : null;
      if (!manifest) {
        const error = jsonError ? `${file} is not valid JSON: ${jsonError}` : `${file} is not a JSON object`;
        return { name, file, version: versionOf(text), manifest: null, texts: {}, error: `${error}; fix it in an editor (npm run generate names the line)` };
      }
      return { name, file, version: versionOf(text), manifest, texts: textsOfManifest(manifest, trees) };
    });
    const metaSchema = JSON.parse(fs.readFileSync(path.join(root, 'manifests', 'manifest.schema.json'), 'utf8')) as unknown;
    return { manifests, metaSchema, live: config.live };
  });

  const read = define(NEEDS_SCHEMA_MANAGE, async (_caller, input: { name: string }) => {
    const { file, onDisk, problem } = locate(input.name);
    if (problem?.kind === 'taken') {
      throw new HttpError(404, `No manifest holds the entity "${input.name}": ${problem.message}${problem.holder ? `; open it as /api/studio/manifests/${problem.holder}` : ''}`);
    }
    if (problem) throw new HttpError(409, `${problem.message}; ${problem.fix}`);
    const text = onDisk?.text ?? null;
    if (text === null) throw new HttpError(404, `No manifest holds the entity "${input.name}" (${file} does not exist); create it with PUT and "If-None-Match: *"`);
    const manifest = currentKeys(file, parseManifest(text, file));
    return { name: input.name, file, version: versionOf(text), manifest, texts: textsOfManifest(manifest, readLocales(root)) };
  });

  const validate = define(NEEDS_SCHEMA_MANAGE, async (_caller, input: { body: unknown }) => {
    const result = check(draftOf(input.body));
    return { ok: result.issues.length === 0, issues: result.issues, preview: result.preview };
  });

  const plan = define(NEEDS_SCHEMA_MANAGE, async (_caller, input: { body: unknown }) => planOf(draftOf(input.body)));

  const save = define(NEEDS_SCHEMA_MANAGE, async (_caller, input: StudioSaveInput) => {
    // The URL names the entity saved; a body's "entity" (what validate and plan take) cannot say otherwise.
    const draft = { ...draftOf(input.body), entity: input.name };
    const { ifMatch, creating } = input;
    if (!ifMatch && !creating) {
      throw new HttpError(400, 'Send If-Match with the version you edited (GET gives it), or If-None-Match: * to create a new entity; a save without it could overwrite someone else\'s');
    }
    return serialised(async () => {
      const location = locate(input.name);
      const { file, problem } = location;
      if (problem) throw new HttpError(409, `${problem.message}; ${problem.fix}. Nothing was written`);
      const identity = identityIssue(location, input.name, draft.name);
      if (identity) throw new HttpError(400, `${identity.message}; ${identity.fix}. Nothing was written`);
      const currentText = location.onDisk?.text ?? null;
      const current = versionOf(currentText);
      if ((creating && currentText !== null) || (!creating && ifMatch !== current)) {
        throw new HttpError(409, creating
          ? `${file} already exists (someone created it meanwhile); open it and edit it instead`
          : `${file} changed since you opened it (someone else saved it); your changes were not written. Reload it, then apply your changes again`, {
          i18nMessage: 'studio.conflict',
          details: { currentVersion: current, current: currentText === null ? null : parseManifest(currentText, file) },
        });
      }
      const planned = await planOf(draft);
      if (planned.file !== file) throw new Error(`studio: ${file} was checked as ${planned.file}`);
      if (planned.issues.length > 0) {
        throw new HttpError(422, `${planned.issues.length} problem(s) in the manifests; nothing was written`, { details: { issues: planned.issues } });
      }
      if (planned.plan.refusals.length > 0) {
        throw new HttpError(422, `The migration plan refuses ${planned.plan.refusals.length} change(s); nothing was written:\n${planned.plan.refusals.map((r) => `${r.file}: field "${r.field}": ${r.message}`).join('\n')}`, {
          details: { plan: planned.plan },
        });
      }
      const text = manifestText(draft.manifest);
      const files = new Map<string, string>([[file, text]]);
      if (planned.localeKeys.length > 0) {
        for (const locale of STUDIO_LOCALES) files.set(`locales/${locale}.json`, `${JSON.stringify(planned.locales[locale], null, 2)}\n`);
      }
      const previous = new Map([...files.keys()].map((relative) => [relative, readText(root, relative)]));
      writeFilesAtomically(root, files);
      const version = versionOf(text);
      input.log.info({ file, localeKeys: planned.localeKeys.length, steps: planned.plan.steps.length }, 'schema studio saved a manifest');
      // Under `npm start` the save is applied before it is answered (the dev server's watcher applies its own).
      const applied = config.live === 'running' ? await liveApply(`studio saved ${file}`) : null;
      if (applied && !applied.applied) {
        // The files go back as they were, so the disk and the served model agree (nothing half-applied).
        restoreFiles(root, previous);
        throw new HttpError(422, `The save could not be applied, so nothing was kept: ${applied.message ?? applied.outcome}`, { details: { outcome: applied.outcome } });
      }
      return {
        name: draft.name,
        file,
        version,
        written: [...files.keys()],
        plan: planned.plan,
        localeKeys: planned.localeKeys,
        live: applied ? 'applied' : config.live === 'dev' ? 'dev' : 'restart',
        applyMs: applied?.ms ?? null,
        message: applied
          ? `Saved and applied in ${applied.ms} ms: the API and the console serve the new model now.`
          : config.live === 'dev'
            ? 'Saved. The dev server regenerates and reloads now (the plan runs as it starts); the console updates by itself.'
            : 'Saved. Restart the server to apply it: `npm start` regenerates, migrates with this plan and rebuilds the console.',
      };
    });
  });


  function check(draft: StudioDraft) {
    try {
      return checkDraft(root, draft);
    } catch (error) {
      if (error instanceof TextConflictError) throw new HttpError(400, error.message);
      throw error;
    }
  }

  async function planOf(draft: StudioDraft) {
    const result = check(draft);
    const { file, currentText: beforeText } = result;
    const before = beforeText === null ? null : safeParse(beforeText);
    const trees = readLocales(root);
    const localeKeys = changedTexts(trees, draft.texts);
    const diff = diffManifests(before ?? {}, draft.manifest);
    let plan: ReturnType<typeof describePlan> = { steps: [], kept: [], refusals: [], text: '' };
    if (result.models) plan = describePlan(await planMigrations(deps.database, Object.values(result.models)));
    return { ok: result.issues.length === 0 && plan.refusals.length === 0, issues: result.issues, file, version: versionOf(beforeText), isNew: beforeText === null, diff, localeKeys, plan, locales: result.locales as Record<string, LocaleTree>, preview: result.preview };
  }

  function draftOf(input: unknown): StudioDraft {
    const body = input as { manifest?: unknown; texts?: unknown; entity?: unknown };
    const manifest = body.manifest as Record<string, unknown>;
    const name = manifest.name;
    if (typeof name !== 'string' || !ENTITY_NAME.test(name) || name === 'enums') {
      throw new HttpError(400, `manifest.name must be an entity name: a lowercase letter, then letters and digits (e.g. "faq", "supportTicket"); got ${JSON.stringify(name)}`, {
        inputErrors: [{ field: 'manifest.name', reason: 'validation.pattern' }],
      });
    }
    const problem = textsProblem(body.texts);
    if (problem) throw new HttpError(400, problem, { inputErrors: [{ field: 'texts', reason: 'validation.invalid' }] });
    const { entity } = body;
    if (entity !== undefined && entity !== null && (typeof entity !== 'string' || !ENTITY_NAME.test(entity))) {
      throw new HttpError(400, `entity must be the name of the entity the draft was opened as (e.g. "bottrace"), or absent for a new one; got ${JSON.stringify(entity)}`, {
        inputErrors: [{ field: 'entity', reason: 'validation.pattern' }],
      });
    }
    return { name, ...(typeof entity === 'string' ? { entity } : {}), manifest: currentKeys(`manifests/${name}.json`, manifest), texts: (body.texts ?? {}) as StudioTexts };
  }

  // What the built console cannot know: the entities a live apply changed or added since it was built.
  let changes: LiveModelChanges | null = null;
  const liveModel = define('signedIn', async () => (changes ??= liveModelOf(deps.entities, root)));

  return { list, read, validate, plan, save, liveModel };
}

/**
 * The entities this app serves that differ from the ones built into the server (and the console
 * built with it): what the console overlays on its own model (src/app/live-model.ts). The client
 * model only, never the storage, as src/generated/entities.ts has it.
 */
function liveModelOf(served: EntityModelMap, root: string): LiveModelChanges {
  const changed: LiveModelChanges['changed'] = {};
  if (served === generatedEntities) return NO_LIVE_CHANGES;
  const clientOf = ({ storage: _storage, ...model }: EntityModel) => model;
  for (const model of Object.values(served)) {
    const built = generatedEntities[model.name];
    const client = clientOf(model);
    if (built && JSON.stringify(clientOf(built)) === JSON.stringify(client)) continue;
    changed[model.name] = { model: client, schema: buildInputSchema(model, 'form'), uiSchema: uiSchema(model) };
  }
  if (Object.keys(changed).length === 0) return NO_LIVE_CHANGES;
  return { changed, menu: menuGroupsOf(served), texts: readLocales(root) };
}

function describePlan(plan: MigrationPlan) {
  const text = formatPlan(plan);
  // The converted values stay on the server (they can be many); the count says how many rows move.
  const steps = plan.steps.map((step: MigrationStep) => (step.kind === 'convert' ? { ...step, updates: step.updates.length } : step));
  return { steps, kept: plan.kept, refusals: plan.refusals, text };
}

/**
 * The manifest with its old key names under the current ones (api.provider -> api.endpoints), so
 * the studio's form never shows an old name and a save writes the current one. Old and current
 * keys that disagree are left as they are: the generator's check names both.
 */
function currentKeys(file: string, manifest: Record<string, unknown>): Record<string, unknown> {
  const resolved = resolveManifestAliases(file, manifest);
  return resolved.issues.length > 0 ? manifest : (resolved.json as Record<string, unknown>);
}

/** Where entity `name`'s manifest is (studio-files.ts locateManifest), read now; a 400 for a name no entity can have. */
function locateIn(root: string, name: string): ManifestLocation {
  if (!ENTITY_NAME.test(name) || name === 'enums') {
    throw new HttpError(400, `"${name}" is not an entity name: a lowercase letter, then letters and digits; the studio reads and writes only manifests/<entity>.json`);
  }
  return locateManifest(readManifests(root), name);
}

function parseManifest(text: string, file: string): Record<string, unknown> {
  const parsed = safeParse(text);
  if (parsed === null) throw new HttpError(409, `${file} is not valid JSON on disk; fix it in an editor (npm run generate names the line)`);
  return parsed;
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function readLocales(root: string): Record<'es' | 'en', LocaleTree> {
  const read = (locale: string) => JSON.parse(readText(root, `locales/${locale}.json`) ?? '{}') as LocaleTree;
  return { es: read('es'), en: read('en') };
}

