import { createPrecompiledValidator, type CompiledValidateFunction, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { ErrorObject } from 'ajv';

type Json = Record<string, unknown>;

/**
 * The RJSF validator of one rendered form, built from the generator's precompiled functions
 * (src/generated/validators): no schema is compiled in the browser, so the strict CSP holds.
 *
 * The functions were compiled from the entity's full generated schema, while the form renders a
 * derivative of it (titles translated, fields the user may not see removed, required-on-create
 * rules dropped when editing, fields an override edits itself cut away). RJSF's precompiled
 * validator only accepts the schema it was given, so it gets the rendered one, and the root
 * function's errors are narrowed to what that schema still asks for.
 */
export function createFormValidator(validateFns: ValidatorFunctions, schema: Json, onUnavailable: (reason: string) => void = () => undefined): ValidatorType {
  const id = schema.$id;
  const full = typeof id === 'string' ? validateFns[id] : undefined;
  if (!full) throw new Error(`No precompiled validator for form schema "${String(id)}": run npm run generate`);
  const narrowed = narrow(full, schema);
  const validator = createPrecompiledValidator({ ...validateFns, [id as string]: narrowed }, schema as RJSFSchema);
  return {
    validateFormData: (...args) => validator.validateFormData(...args),
    rawValidation: (...args) => validator.rawValidation(...args),
    isValid(subschema, formData, rootSchema) {
      try {
        return validator.isValid(subschema, formData, rootSchema);
      } catch (error) {
        // A sub-schema the generator did not precompile. RJSF asks while rendering (if/then,
        // option matching), so this must not throw: the condition counts as unmet and the form
        // says the server will check it.
        onUnavailable(error instanceof Error ? error.message : String(error));
        return false;
      }
    },
  } as ValidatorType;
}

function narrow(validate: CompiledValidateFunction, schema: Json): CompiledValidateFunction {
  const properties = new Set(Object.keys((schema.properties ?? {}) as Json));
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const keep = (error: ErrorObject): boolean => {
    // "must match then schema" only summarises the required error reported beside it.
    if (error.keyword === 'if') return false;
    if (error.instancePath === '' && error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      // Unconditional rules come from the root required list; conditional ones (visibleWhen) from allOf.
      return error.schemaPath === '#/required' ? required.has(missing) : properties.has(missing);
    }
    const root = error.instancePath.split('/')[1];
    return root === undefined || root === '' || properties.has(decodePointer(root));
  };
  const narrowed: CompiledValidateFunction = function (this: unknown, data: unknown) {
    validate.call(this, data);
    const errors = (validate.errors ?? []).filter(keep);
    narrowed.errors = errors.length ? errors : null;
    return errors.length === 0;
  };
  return narrowed;
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Stands in when a form has no precompiled validator: every submit goes to the server, whose
 * answer (field by field) the dialog shows; the form says the check happens there.
 */
export const acceptAllValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  rawValidation: () => ({ errors: undefined }),
  isValid: () => false,
};
