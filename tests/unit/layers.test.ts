import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of docs/architecture.md ("Layers"), read from the sources: a change that
 * breaks one fails here with the file and the import, not in a review months later.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Every import of `file`: relative ones resolved to a path from the root, packages as named. */
function importsOf(file: string): Array<{ spec: string; target: string }> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found: Array<{ spec: string; target: string }> = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    const target = spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec)) : spec;
    found.push({ spec, target });
  }
  return found;
}

function violations(dirs: string[], forbidden: (target: string, file: string) => boolean): string[] {
  return dirs.flatMap((dir) => sources(dir).flatMap((file) => importsOf(file).filter(({ target }) => forbidden(target, file)).map(({ spec }) => `${file} imports ${spec}`)));
}

const under = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);
const DRIVERS = new Set(['better-sqlite3', 'pg', 'ioredis']);

/** Driver imports outside server/db/ that remain (docs/architecture.md, "Add a database"): none may be added. */
const DRIVER_EXCEPTIONS = new Set([
  'server/rag/search/hybrid-index.ts',
  'server/rag/search/sqlite-vector-store.ts',
  'server/rag/search/sqlite-fts-index.ts',
  'server/rag/search/postgres-fts-index.ts',
  // Start-up checks and backups talk to the database before (or instead of) a server's Database.
  'server/startup/check-startup.ts',
  'server/backup/create-backup.ts',
  'server/backup/restore-backup.ts',
]);

describe('layers', () => {
  it('contract/ imports no other layer and no library but Ajv', () => {
    expect(violations(['contract'], (target) => (target.includes('/') && !under(target, 'contract') && !target.startsWith('ajv')) || (!target.includes('/') && target !== 'ajv' && !target.startsWith('contract')))).toEqual([]);
  });

  it('runtime/ never imports src/ or the server', () => {
    expect(violations(['runtime'], (target) => under(target, 'src') || under(target, 'server') || under(target, 'generator'))).toEqual([]);
  });

  it('server/ never imports the client or the generator', () => {
    // The generated server model re-exports the generated entity list (data, not client code);
    // the schema studio runs the generator's own checks, on purpose (it is off in production).
    const allowed = (target: string, file: string) =>
      (file === 'server/generated/entities.ts' && target === 'src/generated/entities.ts') || (under(file, 'server/studio') && under(target, 'generator'));
    expect(violations(['server'], (target, file) => (under(target, 'src') || under(target, 'runtime') || under(target, 'generator')) && !allowed(target, file))).toEqual([]);
  });

  it('the console never imports the server or the generator', () => {
    expect(violations(['src'], (target) => under(target, 'server') || under(target, 'generator'))).toEqual([]);
  });

  it('only server/db/ imports a database driver (the listed exceptions aside)', () => {
    expect(violations(['server'], (target, file) => DRIVERS.has(target) && !under(file, 'server/db') && !DRIVER_EXCEPTIONS.has(file))).toEqual([]);
  });

  it('the check sees imports at all (a broken pattern would pass every rule above)', () => {
    expect(importsOf('server/http/create-server.ts').some(({ target }) => target === 'fastify')).toBe(true);
    expect(importsOf('runtime/crud/crud-page.tsx').some(({ target }) => under(target, 'runtime'))).toBe(true);
  });
});
