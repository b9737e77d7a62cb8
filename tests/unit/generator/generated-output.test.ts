import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { generate } from '../../../generator/generate.ts';
import { readInput } from '../../../generator/load/read-input.ts';
import { metaSchema, ROOT } from './fixture.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixture-project');
const GOLDEN = path.join(import.meta.dirname, 'golden');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'generator/cli.ts');

function fixtureFiles() {
  return generate(readInput(FIXTURE), metaSchema).files;
}

describe('golden output for the fixture entities (author, book)', () => {
  const files = fixtureFiles();
  // UPDATE_GOLDEN=1 rewrites the golden copies after an intended change; review the diff.
  if (process.env.UPDATE_GOLDEN) {
    rmSync(GOLDEN, { recursive: true, force: true });
    for (const [file, content] of files) {
      const target = path.join(GOLDEN, file);
      execFileSync('mkdir', ['-p', path.dirname(target)]);
      writeFileSync(target, content);
    }
  }

  test('emits exactly the golden file set', () => {
    const golden = readdirSync(GOLDEN, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(GOLDEN, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
    expect([...files.keys()].sort()).toEqual(golden);
  });

  for (const [file, content] of files) {
    test(file, () => {
      expect(content).toBe(readFileSync(path.join(GOLDEN, file), 'utf8'));
    });
  }
});

describe('determinism', () => {
  test('generating twice gives identical bytes', () => {
    const first = fixtureFiles();
    const second = fixtureFiles();
    expect([...second.entries()]).toEqual([...first.entries()]);
  });

  test('manifest file order on disk does not matter', () => {
    const input = readInput(FIXTURE);
    const reversed = { ...input, manifests: [...input.manifests].reverse() };
    expect([...generate(reversed, metaSchema).files.entries()]).toEqual([...fixtureFiles().entries()]);
  });
});

// Each test spawns the CLI (tsx start-up plus a full generation) up to three times: on a loaded
// 2-core runner that is seconds, not the default 5.
describe('the CLI', { timeout: 60_000 }, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'forja-gen-'));
  cpSync(FIXTURE, work, { recursive: true });
  cpSync(path.join(ROOT, 'manifests/manifest.schema.json'), path.join(work, 'manifests/manifest.schema.json'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const run = (...args: string[]) => spawnSync(TSX, [CLI, '--root', work, ...args], { encoding: 'utf8' });

  test('--check fails before the first generation and names the missing files', () => {
    const result = run('--check');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('missing  src/generated/types.ts');
  });

  test('generates, then --check passes', () => {
    const generated = run();
    expect(generated.status).toBe(0);
    expect(generated.stdout).toMatch(/✔ 2 entities, \d+ files: \d+ added, 0 changed, 0 removed, 0 unchanged/);
    expect(generated.stdout).toContain('book');
    const check = run('--check');
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('generated artefacts are up to date');
  });

  test('--check fails after a manifest edit, naming the stale files, and passes after regenerating', () => {
    const file = path.join(work, 'manifests/author.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    manifest.fields.push({ name: 'bio', type: 'longString', label: 'field.author.name' });
    writeFileSync(file, JSON.stringify(manifest, null, 2));
    const stale = run('--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('differs  src/generated/schemas/author.schema.json');
    expect(stale.stderr).toContain('differs  server/generated/entities.ts');
    expect(run().status).toBe(0);
    expect(run('--check').status).toBe(0);
    expect(readFileSync(path.join(work, 'src/generated/types.ts'), 'utf8')).toContain('bio?: string | null;');
  });

  test('a stray file in a generated folder is stale and removed', () => {
    writeFileSync(path.join(work, 'src/generated/leftover.ts'), 'export {};\n');
    const stale = run('--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('extra    src/generated/leftover.ts');
    expect(run().status).toBe(0);
    expect(existsSync(path.join(work, 'src/generated/leftover.ts'))).toBe(false);
  });

  test('a broken manifest exits 1, names file, path, found and expected, and writes nothing', () => {
    const before = readFileSync(path.join(work, 'src/generated/entities.ts'), 'utf8');
    const file = path.join(work, 'manifests/book.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    manifest.fields[2].ref.entity = 'autor';
    manifest.fields.push({ name: 'isbn', type: 'string', label: 'field.book.title' });
    writeFileSync(file, JSON.stringify(manifest, null, 2));
    const result = run();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('manifests/book.json: fields[author].ref.entity: no entity is named "autor"');
    expect(result.stderr).toContain('expected: one of: author, book');
    expect(result.stderr).toContain('did you mean "author"?');
    expect(result.stderr).toContain('nothing was written');
    expect(readFileSync(path.join(work, 'src/generated/entities.ts'), 'utf8')).toBe(before);
  });

  test('invalid JSON is reported with line and column', () => {
    writeFileSync(path.join(work, 'manifests/book.json'), '{\n  "name": "book",\n  "typeName" "Book"\n}\n');
    const result = run();
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/manifests\/book\.json: is not valid JSON: .*\(line 3, column 14\)/);
  });

  test('an unknown option prints the usage and exits 2', () => {
    const result = run('--chek');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown option "--chek"');
  });
});
