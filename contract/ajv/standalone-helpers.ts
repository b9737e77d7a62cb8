/**
 * The helpers AJV's standalone code imports (in place of its CommonJS `require(...)` calls), for
 * the validators generated into contract/generated and src/generated/validators. Written here
 * rather than imported from ajv/dist/runtime because those are CommonJS modules whose default
 * export Node and bundlers unwrap differently. contract/ so server and console share them.
 */

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

/** Deep equality of JSON values, as `enum` and `const` compare (AJV's equal, fast-deep-equal). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => equal(item, other[index]));
  }
  const left = Object.keys(a);
  const right = b as Record<string, unknown>;
  return left.length === Object.keys(right).length && left.every((key) => Object.hasOwn(right, key) && equal((a as Record<string, unknown>)[key], right[key]));
}
