import Ajv, { type AnySchemaObject, type CodeOptions } from 'ajv';
import addFormats, { type FormatName } from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { schemaParser, type RJSFSchema } from '@rjsf/utils';
import { GENERATED_HEADER } from '../emitted-files.ts';
import type { JsonSchema } from '../json-schema.ts';
import { importAjvHelpers, type AjvHelper } from '../import-ajv-helpers.ts';

/**
 * The options @rjsf/validator-ajv8 compiles with (its AJV_CONFIG): the error objects the
 * precompiled functions produce must look exactly like the ones RJSF's own validator would.
 */
const RJSF_AJV_OPTIONS = { allErrors: true, multipleOfPrecision: 8, strict: false, verbose: true, discriminator: false } as const;

/** The module the emitted code imports its AJV helpers from (relative to src/generated/validators). */
const HELPERS_MODULE = '../../../runtime/form/validator-helpers.ts';

/** The AJV helpers the form validators may need, imported from HELPERS_MODULE (see import-ajv-helpers.ts). */
const HELPERS: readonly AjvHelper[] = [
  { pattern: /require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, name: 'ucs2length' },
  { pattern: /require\("ajv-formats\/dist\/formats"\)\.fullFormats/g, name: 'fullFormats' },
];

/**
 * An AJV instance configured as RJSF's validator is (options, formats, our x-messages keyword).
 * The generator's own instances skip validating schemas against the meta-schema (`trusted`):
 * the form schemas come from validated manifests, the tests compile them with validation on, and
 * compiling the meta-schema was 90% of the generator's time per entity (45 of 50 ms).
 */
export function createFormAjv(code?: CodeOptions, trusted = false, formats?: FormatName[]): Ajv {
  const ajv = new Ajv({ ...RJSF_AJV_OPTIONS, ...(code ? { code } : {}), ...(trusted ? { validateSchema: false } : {}) });
  if (formats) addFormats(ajv, formats);
  else addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-messages', schemaType: 'object' });
  return ajv;
}

/**
 * Adds a form schema and the sub-schemas RJSF validates on their own, keyed as RJSF looks them
 * up ($id, or its hash of the sub-schema); returns their keys. A key already held is replaced
 * (a manifest edited in watch mode), except hashes: the same hash is the same sub-schema.
 */
export function addFormSchemas(ajv: Ajv, schema: JsonSchema): string[] {
  const schemas = schemaParser(schema as RJSFSchema) as Record<string, AnySchemaObject>;
  const keys = Object.keys(schemas).sort();
  for (const key of keys) {
    if (ajv.getSchema(key)) {
      if (key !== schema.$id) continue;
      ajv.removeSchema(key);
    }
    ajv.addSchema(schemas[key]!, key);
  }
  return keys;
}

export class FormValidatorError extends Error {}

/** The `format`s a schema names anywhere (ipv4, email, uri...). */
function formatsIn(schema: unknown, found = new Set<FormatName>()): FormatName[] {
  if (Array.isArray(schema)) for (const item of schema) formatsIn(item, found);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'format' && typeof value === 'string') found.add(value as FormatName);
      else formatsIn(value, found);
    }
  }
  return [...found].sort();
}

/**
 * Precompiles the form schema and every sub-schema RJSF may validate on its own (the `if` of a
 * visibleWhen rule) into plain functions, so the browser never compiles a schema: the console's
 * Content-Security-Policy forbids eval (`script-src 'self'`), and AJV's compiler is `new Function`.
 * The module is the `ValidatorFunctions` map of @rjsf/validator-ajv8's createPrecompiledValidator:
 * keyed by the root schema's $id and by RJSF's hash of each sub-schema. One AJV instance per form,
 * so the code's internal names depend on this form alone (adding an entity changes no other file).
 */
export function emitFormValidator(entity: string, schema: JsonSchema): string {
  // Compiling is most of a generator run; in watch mode (`npm run dev`) a save changes one
  // entity, so each entity's last output is kept and reused while its schema is the same.
  const key = JSON.stringify(schema);
  const last = lastEmitted.get(entity);
  if (last?.key === key) return last.code;
  const code = compileFormValidator(entity, schema);
  lastEmitted.set(entity, { key, code });
  return code;
}

/** Per entity: its form schema (as JSON) and the module emitted for it. One entry per entity. */
const lastEmitted = new Map<string, { key: string; code: string }>();

function compileFormValidator(entity: string, schema: JsonSchema): string {
  // Only the formats the form uses, and no optimisation pass: the generator's time per entity
  // halves, and the code is as correct (the tests compare it with RJSF's own validator).
  const ajv = createFormAjv({ source: true, esm: true, lines: false, optimize: false }, true, formatsIn(schema));
  const keys = addFormSchemas(ajv, schema);
  const exportNames = Object.fromEntries(keys.map((key, index) => [`precompiled${index}`, key]));
  const { code, used } = importAjvHelpers(standaloneCode(ajv, exportNames), HELPERS, (call) =>
    new FormValidatorError(
      `src/generated/validators/${entity}.ts: the form schema needs the AJV helper ${call}, which has no browser import\n` +
        `  fix: add it to HELPERS in generator/emit/client/emit-form-validator.ts and export it from runtime/form/validator-helpers.ts`,
    ),
  );
  const map = keys.map((key, index) => `  ${JSON.stringify(key)}: precompiled${index},`).join('\n');
  return `${GENERATED_HEADER}// @ts-nocheck -- AJV standalone output: plain JavaScript, checked by the generator's tests instead.
/* eslint-disable */
${used.length ? `import { ${used.join(', ')} } from '${HELPERS_MODULE}';\n` : ''}${code.replace(/^"use strict";/, '')}

/** The precompiled form validators of "${entity}", by schema $id / RJSF schema hash. */
export const validateFns = {
${map}
};
`;
}
