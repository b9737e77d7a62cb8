import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its callable sits on .default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * The Ajv that validates entity bodies. Strict, so a typo in a generated schema fails at start-up
 * instead of silently validating nothing; "x-messages" (rule -> locale key) is declared as an
 * annotation keyword so strict mode accepts it.
 */
export function createEntityAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    // The generated schemas use ["string", "null"] for optional fields.
    allowUnionTypes: true,
    // `if` blocks of conditional requirements name `required` without a `type`.
    strictTypes: false,
    // ...and their `then` blocks require properties declared one level up, which is valid.
    strictRequired: false,
    useDefaults: false,
    coerceTypes: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-messages', schemaType: 'object' });
  // Compiling the entities' schemas is the slowest step of building an app; `npm run dev` builds
  // one per saved manifest, where all but one entity's schemas are unchanged. A schema compiled
  // before (same JSON, same options: this module's) reuses that function, which is pure.
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = compile(schema);
      if (compiled.size >= MAX_COMPILED) compiled.clear();
      compiled.set(key, validate);
    }
    return validate;
  }) as Ajv['compile'];
  return ajv;
}

/** Compiled entity schemas by their JSON, shared by the apps of one process (dev reloads). */
const compiled = new Map<string, ValidateFunction>();
/** A process serves a couple of schemas per entity; a long dev session forgets old versions. */
const MAX_COMPILED = 500;
