import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { ManifestSource } from '../load/manifest-source.ts';
import type { ManifestIssue } from './manifest-issue.ts';
import { pointerToSegments, toJsonPath, valueAt } from './json-path.ts';
import { nearestName } from './nearest-name.ts';

// ajv-formats ships CommonJS; under ESM its default export arrives wrapped.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ?? addFormatsPlugin);

/** Compiles the meta-schema once and checks manifests against it. */
export function createMetaSchemaValidator(metaSchema: object): (source: ManifestSource) => ManifestIssue[] {
  // Compiling it is the slowest step of a run: watch mode (`npm run dev`) reuses the last one
  // while the meta-schema is the same.
  const key = JSON.stringify(metaSchema);
  if (lastCompiled?.key !== key) lastCompiled = { key, check: compileMetaSchema(metaSchema) };
  return lastCompiled.check;
}

let lastCompiled: { key: string; check: (source: ManifestSource) => ManifestIssue[] } | null = null;

function compileMetaSchema(metaSchema: object): (source: ManifestSource) => ManifestIssue[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  const validate = ajv.compile(metaSchema);
  return (source) => (validate(source.json) ? [] : explain(validate, source));
}

// Combinator keywords report "something below failed"; the specific errors beside them say what.
const WRAPPER_KEYWORDS = new Set(['if', 'oneOf', 'anyOf', 'allOf', 'not']);

function explain(validate: ValidateFunction, source: ManifestSource): ManifestIssue[] {
  const errors = validate.errors ?? [];
  const specific = errors.filter((error) => !WRAPPER_KEYWORDS.has(error.keyword));
  const chosen = dedupe(specific.length ? specific : errors);
  return chosen.map((error) => toIssue(error, source));
}

function dedupe(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const error of errors) {
    const key = `${error.instancePath}|${error.keyword}|${JSON.stringify(error.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}

function toIssue(error: ErrorObject, source: ManifestSource): ManifestIssue {
  const segments = pointerToSegments(error.instancePath);
  const found = valueAt(source.json, segments);
  const base = { file: source.file, path: toJsonPath(segments) };
  const params = error.params as Record<string, unknown>;
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  switch (error.keyword) {
    case 'required': {
      const property = String(params.missingProperty);
      return {
        ...base,
        path: toJsonPath([...segments, property]),
        message: `required property "${property}" is missing`,
        expected: describeSchema(error.schema, property, error.parentSchema),
        fix: `add "${property}"`,
      };
    }
    case 'additionalProperties': {
      const property = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const nearest = nearestName(property, allowed);
      return {
        ...base,
        path: toJsonPath([...segments, property]),
        message: `unknown property "${property}"`,
        expected: `one of: ${allowed.join(', ')}`,
        ...(nearest === undefined ? {} : { suggestion: nearest }),
        fix: `remove "${property}" or correct its spelling`,
      };
    }
    case 'enum':
      return {
        ...base,
        message: 'value is not allowed',
        found,
        expected: `one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { ...base, message: 'value is not allowed', found, expected: JSON.stringify(params.allowedValue) };
    case 'type':
      return { ...base, message: `wrong type`, found, expected: `a value of type ${String(params.type)}` };
    case 'pattern':
      return {
        ...base,
        message: 'value does not match the required form',
        found,
        expected: description ? `${description} (pattern ${String(params.pattern)})` : `to match ${String(params.pattern)}`,
      };
    case 'format':
      return { ...base, message: `value is not a valid ${String(params.format)}`, found, expected: `a ${String(params.format)}` };
    case 'uniqueItems':
      return { ...base, message: `items ${String(params.j)} and ${String(params.i)} are identical`, found, fix: 'remove the duplicate' };
    case 'minItems':
    case 'maxItems':
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
      return { ...base, message: error.message ?? error.keyword, found };
    default:
      return { ...base, message: error.message ?? `fails ${error.keyword}`, found };
  }
}

function describeSchema(_schema: unknown, property: string, parentSchema: unknown): string | undefined {
  const properties = (parentSchema as { properties?: Record<string, { description?: string }> } | undefined)?.properties;
  return properties?.[property]?.description ?? undefined;
}
