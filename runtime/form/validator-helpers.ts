/**
 * The helpers the generated form validators (src/generated/validators) import, in place of the
 * CommonJS `require(...)` calls AJV's standalone code makes (see contract/ajv/standalone-helpers.ts).
 */
export { fullFormats } from 'ajv-formats/dist/formats.js';
export { ucs2length } from '../../contract/ajv/standalone-helpers.ts';
