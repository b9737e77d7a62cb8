import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * runtime/core/ is the console's headless core (docs/architecture.md, "The client"): controllers
 * on React and TanStack Query that another component library could render. Neither it nor
 * anything it imports, however indirectly, may reach Mantine, React DOM or a widget library.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CORE = 'runtime/core';
// Type-only imports (`import type`, `import('…').Name` in a type) are erased from the build: not followed.
const IMPORT = /(?:^|\n)\s*(?:import|export)(\s+type)?\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)(\.)?/g;
const UI_PACKAGES = /^(@mantine\/|react-dom(\/|$)|@rjsf\/|@tabler\/|@testing-library\/)/;

/** Every package `entry` reaches through relative imports, each with the chain that leads to it. */
function packagesReached(entry: string): Array<{ spec: string; chain: string[] }> {
  const found: Array<{ spec: string; chain: string[] }> = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      if (match[1] || match[4]) continue;
      const spec = match[2] ?? match[3];
      if (!spec.startsWith('.')) {
        found.push({ spec, chain: [...chain, file] });
        continue;
      }
      const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec));
      if (!fs.existsSync(path.join(ROOT, target))) throw new Error(`${file} imports ${spec}, which does not exist (${target})`);
      visit(target, [...chain, file]);
    }
  };
  visit(entry, []);
  return found;
}

function uiImports(entry: string): string[] {
  return packagesReached(entry)
    .filter(({ spec }) => UI_PACKAGES.test(spec))
    .map(({ spec, chain }) => `${chain.join(' → ')} imports ${spec}`);
}

describe('the headless client core', () => {
  const files = fs.readdirSync(path.join(ROOT, CORE)).filter((name) => /\.tsx?$/.test(name)).map((name) => `${CORE}/${name}`);

  it('holds the list, show, create, edit, delete and dialog controllers', () => {
    for (const name of ['use-list-controller.ts', 'use-show-controller.ts', 'use-create-controller.ts', 'use-edit-controller.ts', 'use-delete-controller.ts', 'use-crud-dialog-controller.ts']) {
      expect(files).toContain(`${CORE}/${name}`);
    }
  });

  it('imports no Mantine, React DOM or widget library, directly or through what it imports', () => {
    expect(files.flatMap(uiImports)).toEqual([]);
  });

  it('the check sees a UI import through a chain (the Mantine CRUD page is caught)', () => {
    const found = uiImports('runtime/crud/crud-page.tsx');
    expect(found.some((line) => line.includes('imports @mantine/core'))).toBe(true);
    // Through another module: the page imports the table, which imports Mantine.
    expect(found.some((line) => line.includes('runtime/table/entity-table.tsx imports @mantine/core'))).toBe(true);
  });
});
