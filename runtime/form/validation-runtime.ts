/**
 * The helpers the generated form validators (src/generated/validators) import, in place of the
 * CommonJS `require(...)` calls AJV's standalone code makes. Written here rather than imported from
 * ajv/dist/runtime because those are CommonJS modules whose default export Node and bundlers
 * unwrap differently.
 */
export { fullFormats } from 'ajv-formats/dist/formats.js';

/** Length in Unicode code points, as JSON Schema's minLength/maxLength count (AJV's ucs2length). */
export function ucs2length(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if ((next & 0xfc00) === 0xdc00) index++;
    }
  }
  return length;
}
