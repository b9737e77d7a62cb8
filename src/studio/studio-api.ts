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
  /** The file the save writes: the one holding the entity (manifests/botTrace.json holds "bottrace"), or manifests/<name>.json for a new one. */
  file: string;
  version: string;
  isNew: boolean;
  diff: Array<{ path: string; kind: 'added' | 'removed' | 'changed'; before?: unknown; after?: unknown }>;
  localeKeys: Array<{ key: string; es: string; en: string; change: 'add' | 'change' }>;
  plan: { steps: Array<Record<string, unknown> & { kind: string }>; kept: Array<{ table: string; column: string }>; refusals: Array<{ file: string; entity: string; field: string; message: string }>; text: string };
}
export interface SaveResult {
  name: string;
  file: string;
  version: string;
  written: string[];
  /** 'applied': the server serves the new model already (applyMs after the files were written). */
  live: 'dev' | 'restart' | 'applied';
  applyMs?: number | null;
  message: string;
}

/**
 * What is sent about a draft: the manifest, its texts, and the entity it was opened as (its saved
 * "name"; null for a new entity). The server finds that entity's file (manifests/botTrace.json holds
 * "bottrace") and refuses a draft whose "name" differs (a rename).
 */
export interface DraftBody {
  manifest: Manifest;
  texts: StudioTexts;
  entity: string | null;
}
const body = ({ manifest, texts, entity }: DraftBody) => (entity === null ? { manifest, texts } : { manifest, texts, entity });

/** The schema studio's API (server/studio/studio-feature.ts). */
export const studioApi = {
  list: (signal?: AbortSignal) => restApi.call<StudioList>({ method: 'GET', path: '/api/studio/manifests', signal }),
  validate: (draft: DraftBody, signal?: AbortSignal) =>
    restApi.call<ValidateResult>({ method: 'POST', path: '/api/studio/validate', json: body(draft), signal }),
  plan: (draft: DraftBody) => restApi.call<PlanResult>({ method: 'POST', path: '/api/studio/plan', json: body(draft) }),
  /** Saved as its entity (a new one: as its own name); version null: a new entity (If-None-Match: *). */
  save: (draft: DraftBody, version: string | null) =>
    restApi.call<SaveResult>({
      method: 'PUT',
      path: `/api/studio/manifests/${encodeURIComponent(draft.entity ?? draft.manifest.name)}`,
      json: body(draft),
      headers: version === null ? { 'if-none-match': '*' } : { 'if-match': `"${version}"` },
    }),
};
