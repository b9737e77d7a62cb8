import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on first use, synchronously (through its CommonJS build). For heavy packages
 * that only some requests need: gpt-tokenizer's ranks are about 50 MB of resident memory and
 * cheerio about 19 MB, which a process that never counts tokens or reads an HTML page (an
 * instance serving the console, or one exporting a million rows) should not hold.
 */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
