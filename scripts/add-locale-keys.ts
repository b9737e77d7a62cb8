// Adds translations to locales/es.json and locales/en.json in one step, keeping both in step.
// Usage: npx tsx scripts/add-locale-keys.ts '{"validation.example": ["Ejemplo", "Example"]}'
// Run it under `flock /tmp/forja-locales.lock` when several people edit locales at once.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Tree = { [key: string]: string | Tree };

/** Writes each key's [spanish, english] texts into the project's two locale files. */
export function addLocaleKeys(root: string, input: Record<string, [string, string]>): void {
  for (const [index, locale] of (['es', 'en'] as const).entries()) {
    const file = path.join(root, 'locales', `${locale}.json`);
    const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree;
    for (const [key, texts] of Object.entries(input)) {
      if (!Array.isArray(texts) || texts.length !== 2) throw new Error(`${key}: expected [spanish, english]`);
      const parts = key.split('.');
      let node = tree;
      for (const part of parts.slice(0, -1)) {
        const next = node[part];
        if (typeof next === 'string') throw new Error(`${key}: "${part}" already holds a text, cannot nest under it`);
        node = (node[part] ??= {}) as Tree;
      }
      node[parts.at(-1)!] = texts[index];
    }
    writeFileSync(file, `${JSON.stringify(tree, null, 2)}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const input = JSON.parse(process.argv[2] ?? '{}') as Record<string, [string, string]>;
  addLocaleKeys(path.resolve(import.meta.dirname, '..'), input);
  console.log(`added ${Object.keys(input).length} key(s) to es and en`);
}
