import { customizeValidator } from '@rjsf/validator-ajv8';

/**
 * One AJV validator for every entity form. `x-messages` is our annotation (rule -> i18n key),
 * registered as a keyword so AJV's strict mode still rejects real typos in the schemas.
 */
export const formValidator = customizeValidator({
  extenderFn: (ajv) => {
    if (!ajv.getKeyword('x-messages')) ajv.addKeyword({ keyword: 'x-messages', schemaType: 'object' });
    return ajv;
  },
});
