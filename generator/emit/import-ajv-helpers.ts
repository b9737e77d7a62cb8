/** One AJV standalone helper the emitted module imports by name instead of `require`-ing it. */
export interface AjvHelper {
  pattern: RegExp;
  name: string;
}

/**
 * AJV's standalone code reaches its helpers through CommonJS `require(...)` even in ESM mode.
 * Each known helper is rewritten to a named import (returned in `used`); anything else is
 * `unknownHelper`'s error, so a new schema keyword never ships code the browser cannot load.
 */
export function importAjvHelpers(code: string, helpers: readonly AjvHelper[], unknownHelper: (call: string) => Error): { code: string; used: string[] } {
  const used: string[] = [];
  for (const helper of helpers) {
    const rewritten = code.replace(helper.pattern, helper.name);
    if (rewritten === code) continue;
    used.push(helper.name);
    code = rewritten;
  }
  const unknown = /require\("[^"]*"\)/.exec(code);
  if (unknown) throw unknownHelper(unknown[0]);
  return { code, used };
}
