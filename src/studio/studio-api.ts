import type { ManifestIssue } from '../../contract/model/manifest-issue.ts';
import { restApi } from '../session/api-client.ts';

/** One problem the generator found, where it is (file, named path) and how to fix it. */
export type StudioIssue = ManifestIssue;
export type Manifest = Record<string, unknown> & { name: string; fields?: ManifestField[] };
export type ManifestField = Record<string, unknown> & { name: string; type: string };
export type StudioTexts = Record<string, { es: string; en: string }>;

export interface StudioManifest {
  name: string;
  file: string;
  version: string;
  manifest: Manifest | null;
  texts: StudioTexts;
  error?: string;
}
export interface StudioList {
  manifests: StudioManifest[];
  metaSchema: Record<string, unknown> & { $defs: Record<string, Record<string, unknown>>; properties: Record<string, unknown> };
  /** 'running': the built server applies each save live (SCHEMA_STUDIO=true under npm start). */
  live: 'dev' | 'running';
}
export interface DraftPreview {
  model: Record<string, unknown>;
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
}
export interface ValidateResult {
  ok: boolean;
  issues: StudioIssue[];
  preview: DraftPreview | null;
}
export interface PlanResult extends ValidateResult {
  version: string;
  isNew: boolean;
  diff: Array<{ path: string; kind: 'added' | 'removed' | 'changed'; before?: unknown; after?: unknown }>;
  localeKeys: Array<{ key: string; es: string; en: string; change: 'add' | 'change' }>;
  plan: { steps: Array<Record<string, unknown> & { kind: string }>; kept: Array<{ table: string; column: string }>; refusals: Array<{ file: string; entity: string; field: string; message: string }>; text: string };
}
export interface SaveResult {
  name: string;
  version: string;
  written: string[];
  /** 'applied': the server serves the new model already (applyMs after the files were written). */
  live: 'dev' | 'restart' | 'applied';
  applyMs?: number | null;
  message: string;
}

/** The schema studio's API (server/studio/studio-feature.ts). */
export const studioApi = {
  list: (signal?: AbortSignal) => restApi.call<StudioList>({ method: 'GET', path: '/api/studio/manifests', signal }),
  validate: (manifest: Manifest, texts: StudioTexts, signal?: AbortSignal) =>
    restApi.call<ValidateResult>({ method: 'POST', path: '/api/studio/validate', json: { manifest, texts }, signal }),
  plan: (manifest: Manifest, texts: StudioTexts) => restApi.call<PlanResult>({ method: 'POST', path: '/api/studio/plan', json: { manifest, texts } }),
  /** version null: a new entity (If-None-Match: *). */
  save: (manifest: Manifest, texts: StudioTexts, version: string | null) =>
    restApi.call<SaveResult>({
      method: 'PUT',
      path: `/api/studio/manifests/${encodeURIComponent(manifest.name)}`,
      json: { manifest, texts },
      headers: version === null ? { 'if-none-match': '*' } : { 'if-match': `"${version}"` },
    }),
};
