import { Ajv } from 'ajv';
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
  return ajv;
}
