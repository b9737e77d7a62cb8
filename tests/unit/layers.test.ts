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

/** Static imports only: a dynamic import() runs when called, not when its importer loads. */
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

/** Every file `entries` load at once, through relative static imports (type-only imports erased). */
function staticClosure(entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !fs.existsSync(path.join(ROOT, file))) continue;
    seen.add(file);
    for (const match of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(STATIC_IMPORT)) {
      queue.push(path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), match[1] ?? match[2])));
    }
  }
  return [...seen];
}

function violations(dirs: string[], forbidden: (target: string, file: string) => boolean): string[] {
  return dirs.flatMap((dir) => sources(dir).flatMap((file) => importsOf(file).filter(({ target }) => forbidden(target, file)).map(({ spec }) => `${file} imports ${spec}`)));
}

const under = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);
const DRIVERS = new Set(['better-sqlite3', 'pg', 'ioredis']);

/** What hands out a driver's own connection: called inside server/db/ only. */
const DRIVER_HANDLES = /\b(?:sqliteHandleOf|postgresPoolOf|sqliteWriteGateOf)\b/;
/** DDL of a table: Forja's own tables are declared in server/db/owned-tables.ts, the entities' by the manifests. */
const CREATES_TABLE = /\bCREATE\s+(?:UNLOGGED\s+)?TABLE\b|\.createTable\(/i;

/** The files under `dirs` outside server/db/ whose text matches `pattern`. */
function mentions(dirs: string[], pattern: RegExp): string[] {
  return dirs.flatMap((dir) => sources(dir)).filter((file) => !under(file, 'server/db') && pattern.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
}

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

  it('only server/db/ imports a database driver', () => {
    expect(violations(['server'], (target, file) => DRIVERS.has(target) && !under(file, 'server/db'))).toEqual([]);
  });

  it("no server module outside server/db/ takes a driver's own connection", () => {
    expect(mentions(['server'], DRIVER_HANDLES)).toEqual([]);
  });

  it('no server module outside server/db/ creates a table (server/db/owned-tables.ts does, at start)', () => {
    expect(mentions(['server'], CREATES_TABLE)).toEqual([]);
  });

  it('what npm start and npm run server load before they regenerate the model never reaches a generated module', () => {
    // scripts/start.ts regenerates, then (npm run server) imports the server in the same process:
    // a generated module already loaded by then stays the old one. Once, the generator reached
    // server/generated/entities.ts through server/db/owned-tables.ts: the server validated a new
    // field with the new schemas and refused to store it with the old model (a 500).
    const reached = staticClosure(['scripts/prepare-model.ts', 'scripts/build-server.ts', 'scripts/why-build-console.ts']);
    expect(reached.length).toBeGreaterThan(20);
    expect(reached.filter((file) => under(file, 'server/generated') || under(file, 'src/generated'))).toEqual([]);
  });

  it('the checks see what they look for at all (a broken pattern would pass every rule above)', () => {
    expect(sources('server/db').filter((file) => DRIVER_HANDLES.test(fs.readFileSync(path.join(ROOT, file), 'utf8'))).length).toBeGreaterThan(0);
    expect(CREATES_TABLE.test(fs.readFileSync(path.join(ROOT, 'server/db/owned-tables.ts'), 'utf8'))).toBe(true);
    expect(CREATES_TABLE.test('await kysely.schema.createTable(name)')).toBe(true);
    expect(importsOf('server/db/sqlite-database.ts').some(({ target }) => DRIVERS.has(target))).toBe(true);
    expect(importsOf('server/http/create-server.ts').some(({ target }) => target === 'fastify')).toBe(true);
    expect(importsOf('runtime/crud/crud-page.tsx').some(({ target }) => under(target, 'runtime'))).toBe(true);
  });
});
