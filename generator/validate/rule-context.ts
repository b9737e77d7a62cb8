import type { LoadedManifest, ManifestField, SharedEnums } from '../model/manifest.ts';

/** What every cross-manifest rule sees: all manifests at once, the enums and the locale key sets. */
export interface RuleContext {
  manifests: LoadedManifest[];
  byName: Map<string, LoadedManifest>;
  enums: SharedEnums;
  enumsFile: string;
  /** locale -> { file, keys } where keys are the dotted leaf keys of the locale file. */
  locales: Record<string, { file: string; keys: Set<string> }>;
  /** Icon names a manifest may use (every icon of @tabler/icons-react) -> their component names. */
  icons: ReadonlyMap<string, string>;
}

export type PathSegments = (string | number)[];

export interface FieldVisit {
  field: ManifestField;
  /** Segments from the manifest root to this field (fields, 2, objectFields, 0). */
  segments: PathSegments;
  /** The list the field sits in, for sibling lookups (visibleWhen). */
  siblings: ManifestField[];
  depth: number;
}

/** Every field of a manifest, object sub-fields included, depth-first in declaration order. */
export function visitFields(fields: ManifestField[], segments: PathSegments = ['fields'], depth = 0): FieldVisit[] {
  const out: FieldVisit[] = [];
  fields.forEach((field, index) => {
    const here = [...segments, index];
    out.push({ field, segments: here, siblings: fields, depth });
    if (field.objectFields) out.push(...visitFields(field.objectFields, [...here, 'objectFields'], depth + 1));
  });
  return out;
}

/** Flattens a nested locale object into dotted keys ({a:{b:'x'}} -> a.b). */
export function flattenKeys(json: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [key, value] of Object.entries(json)) {
      const next = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') flattenKeys(value, next, out);
      else out.add(next);
    }
  }
  return out;
}
