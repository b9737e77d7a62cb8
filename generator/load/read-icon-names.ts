import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let cached: ReadonlyMap<string, string> | undefined;

/**
 * Every icon of @tabler/icons-react, the icon set the console ships: kebab-case name as written in
 * manifests ("address-book") -> its React component ("IconAddressBook"). Read from the package's
 * own name table, so any icon of the installed version is accepted and nothing is kept by hand.
 */
export function readIconNames(): ReadonlyMap<string, string> {
  if (cached) return cached;
  const packageDir = path.dirname(require.resolve('@tabler/icons-react/package.json'));
  const file = path.join(packageDir, 'dist/esm/dynamic-imports.mjs');
  const text = readFileSync(file, 'utf8');
  const names = new Map<string, string>();
  for (const match of text.matchAll(/"([a-z0-9-]+)": \(\) => import\('\.\/icons\/(Icon[A-Za-z0-9]+)\.[a-z]+'\)/g)) names.set(match[1], match[2]);
  if (names.size < 1000) throw new Error(`${file}: expected the table of Tabler icon names, found ${names.size} entries (did @tabler/icons-react change its layout?)`);
  cached = names;
  return names;
}
