import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { BOOT_TEXT_KEYS } from '../src/app/boot-texts.ts';

type Tree = Record<string, unknown>;

const BOOT = 'virtual:forja/texts-es-boot';
const REST = 'virtual:forja/texts-es-rest';

/**
 * locales/es.json as two modules: `virtual:forja/texts-es-boot` (BOOT_TEXT_KEYS, in the entry
 * chunk) and `virtual:forja/texts-es-rest` (everything else, a chunk the sign-in page never
 * loads). The file stays the one place Spanish texts are written.
 */
export function textsChunks(): Plugin {
  let spanish = '';
  return {
    name: 'forja:texts-chunks',
    configResolved(config) {
      spanish = path.join(config.root, 'locales', 'es.json');
    },
    resolveId(id) {
      return id === BOOT || id === REST ? `\0${id}` : null;
    },
    load(id) {
      if (id !== `\0${BOOT}` && id !== `\0${REST}`) return null;
      this.addWatchFile(spanish);
      const [boot, rest] = splitTexts(JSON.parse(fs.readFileSync(spanish, 'utf8')) as Tree, BOOT_TEXT_KEYS);
      return `export default ${JSON.stringify(id === `\0${BOOT}` ? boot : rest)};`;
    },
  };
}

/** `texts` split into the entries under `keys` (top-level sections or dotted paths) and the rest. */
export function splitTexts(texts: Tree, keys: readonly string[]): [Tree, Tree] {
  const boot: Tree = {};
  const rest: Tree = structuredClone(texts);
  for (const key of keys) {
    const path = key.split('.');
    let from: unknown = rest;
    let into = boot;
    for (const [index, segment] of path.entries()) {
      if (!from || typeof from !== 'object' || !(segment in from)) throw new Error(`src/app/boot-texts.ts: "${key}" is not in locales/es.json; remove it from BOOT_TEXT_KEYS or add the text`);
      const parent = from as Tree;
      if (index === path.length - 1) {
        into[segment] = parent[segment];
        delete parent[segment];
      } else {
        into = (into[segment] ??= {}) as Tree;
        from = parent[segment];
      }
    }
  }
  return [boot, rest];
}
