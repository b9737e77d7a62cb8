import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { addFormSchemas, createFormAjv } from '../../../generator/emit/client/emit-form-validator.ts';

/**
 * The validators the generator would precompile for a test's own form schema, compiled in memory
 * (tests may eval; the browser build never does).
 */
export function compileValidateFns(schema: Record<string, unknown>): ValidatorFunctions {
  const ajv = createFormAjv();
  const keys = addFormSchemas(ajv, schema);
  return Object.fromEntries(keys.map((key) => [key, ajv.getSchema(key)!])) as ValidatorFunctions;
}
