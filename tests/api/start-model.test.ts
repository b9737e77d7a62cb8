import fs from 'node:fs';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_ADMIN_PASSWORD, ROOT, call, freePort, login } from '../fuzz/helpers/child-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';
import { until } from './helpers/until.ts';
import { scratchCopy as copyRepository } from '../helpers/scratch-copy.ts';
import { buildServer, whyBuildServer } from '../../scripts/build-server.ts';
import { prepareModel } from '../../scripts/prepare-model.ts';
import { whyBuildConsole } from '../../scripts/why-build-console.ts';

/**
 * `npm start` and `npm run server` regenerate and validate the model first (scripts/start.ts,
 * scripts/prepare-model.ts): an edited manifest is what gets built and served, and a broken one
 * stops the start with the generator's message before anything is built, created or served. Each
 * test works on a scratch copy of the repository (node_modules linked, not copied).
 */
const scratchRoots: string[] = [];
afterAll(() => {
  for (const dir of scratchRoots) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchCopy(): string {
  const dir = copyRepository('forja-start-');
  scratchRoots.push(dir);
  return dir;
}

function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The README's "Adding a field" recipe on contact: the manifest, then its label in both locales. */
function addPriorityField(root: string): void {
  const file = path.join(root, 'manifests', 'contact.json');
  const manifest = readJson(file);
  manifest.fields.push({ name: 'priority', type: 'string', label: 'field.contact.priority', validation: { maxLength: 20 } });
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/add-locale-keys.ts', JSON.stringify({ 'field.contact.priority': ['Prioridad', 'Priority'] })], { cwd: root });
}

interface Run {
  code: Promise<number | null>;
  output: () => string;
  stop: () => Promise<number | null>;
}

function npm(root: string, script: string, env: Record<string, string>): Run {
  let output = '';
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = new Promise<number | null>((resolve) => child.once('exit', (exit, signal) => resolve(exit ?? (signal ? -1 : null))));
  return {
    code,
    output: () => output,
    // npm runs the script in a shell: the whole process group goes.
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      return code;
    },
  };
}

/** Resolves when /api/health answers, rejects with the output when the run ends first. */
async function ready(run: Run, baseUrl: string): Promise<void> {
  let ended = false;
  void run.code.then(() => (ended = true));
  // Up to 5 minutes: npm start may run a whole vite build first.
  const up = await until(() => fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false), (ok) => ok || ended, 'the server to answer /api/health', { tries: 1500, everyMs: 200 });
  if (!up) throw new Error(`the server did not start (exit ${await run.code}):\n${run.output().slice(-4000)}`);
}

/** The new field round-trips over REST: it is in the model the server serves. */
async function expectPriorityServed(baseUrl: string): Promise<void> {
  const token = await login(baseUrl);
  const created = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Ana Prioridad', email: 'ana@example.com', priority: 'alta' });
  expect(created.status, created.text).toBe(201);
  const read = await call(baseUrl, token, 'GET', `/api/contacts/${created.body._id}`);
  expect(read.body.priority).toBe('alta');
  const tooLong = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Ana Larga', priority: 'x'.repeat(21) });
  expect(tooLong.status, tooLong.text).toBe(400);
}

/** Ways a product person breaks a manifest; each names the file (and field) in the generator's message. */
const BREAKAGES: Array<[string, (root: string) => void, RegExp]> = [
  [
    'a type that does not exist',
    (root) => {
      const file = path.join(root, 'manifests', 'contact.json');
      const manifest = readJson(file);
      manifest.fields.push({ name: 'priority', type: 'strng', label: 'field.contact.name' });
      fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
    },
    /manifests\/contact\.json: fields\[(4|priority)\]\.type/,
  ],
  [
    'invalid JSON',
    (root) => {
      const file = path.join(root, 'manifests', 'contact.json');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"fields": [', '"fields": [,'));
    },
    /manifests\/contact\.json: is not valid JSON/,
  ],
  [
    'a reference to an entity that does not exist',
    (root) => {
      const file = path.join(root, 'manifests', 'conversation.json');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"entity": "contact"/, '"entity": "contakt"'));
    },
    /manifests\/conversation\.json: fields\[[^\]]+\]\.ref\.entity: no entity is named "contakt"/,
  ],
];

function generatedSnapshot(root: string): string {
  return ['src/generated', 'server/generated']
    .flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)))
    .sort()
    .map((file) => `${file}\n${fs.readFileSync(file, 'utf8')}`)
    .join('\n');
}

// Engine-independent (the model, not the database): run once, in the SQLite project.
describe.skipIf(TEST_BACKEND === 'postgres')('npm start and npm run server serve the manifests as they are now', { timeout: 180_000 }, () => {
  it('npm run server regenerates after a manifest and locale edit, and serves the new field', async () => {
    const root = scratchCopy();
    addPriorityField(root);
    expect(fs.readFileSync(path.join(root, 'server/generated/entities.ts'), 'utf8')).not.toContain('priority');
    const port = await freePort();
    const run = npm(root, 'server', { PORT: String(port), DATA_DIR: path.join(root, 'data') });
    try {
      await ready(run, `http://127.0.0.1:${port}`);
      expect(run.output()).toMatch(/✔ 12 entities, \d+ files: 0 added, [1-9]\d* changed/);
      expect(fs.readFileSync(path.join(root, 'server/generated/entities.ts'), 'utf8')).toContain('priority');
      expect(fs.readFileSync(path.join(root, 'src/generated/entities.ts'), 'utf8')).toContain('field.contact.priority');
      await expectPriorityServed(`http://127.0.0.1:${port}`);
    } finally {
      await run.stop();
    }
  });

  it.each(BREAKAGES)('a manifest with %s: npm run server and npm start refuse with the generator\'s message, and build, create and serve nothing', async (_name, breakIt, message) => {
    const root = scratchCopy();
    breakIt(root);
    const before = generatedSnapshot(root);
    for (const script of ['server', 'start']) {
      const port = await freePort();
      const dataDir = path.join(root, 'data');
      const run = npm(root, script, { PORT: String(port), DATA_DIR: dataDir });
      const code = await run.code;
      expect(code, run.output()).not.toBe(0);
      expect(run.output()).toMatch(message);
      expect(run.output()).toMatch(/nothing was written/);
      expect(run.output()).toMatch(/\[start\] not starting: the manifests above cannot be served/);
      expect(run.output()).not.toMatch(/building the console|building the server|Sign in at/);
      expect(fs.existsSync(dataDir), `${script}: ${dataDir} was created`).toBe(false);
      expect(fs.existsSync(path.join(root, 'dist'))).toBe(false);
      expect(fs.existsSync(path.join(root, 'dist-server'))).toBe(false);
      expect(await fetch(`http://127.0.0.1:${port}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused');
      expect(generatedSnapshot(root)).toBe(before);
    }
  });

  it('the staleness decision: after an edit the regenerated model makes the console and the server bundle stale; unchanged, nothing is', async () => {
    const root = scratchCopy();
    // A previous build: the server bundle (esbuild, quick) and a console marker newer than every source.
    await buildServer(root);
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'dist', 'index.html'), '<!doctype html>');
    expect(whyBuildConsole(root)).toBeNull();
    expect(whyBuildServer(root)).toBeNull();
    const lines: string[] = [];
    // Nothing changed: the generator rewrites nothing, so nothing becomes stale.
    expect(prepareModel(root, (line) => lines.push(line))).toBe(true);
    expect(whyBuildConsole(root)).toBeNull();
    expect(whyBuildServer(root)).toBeNull();
    // What npm start said before: "dist/ is up to date" after a manifest edit.
    addPriorityField(root);
    expect(prepareModel(root, (line) => lines.push(line))).toBe(true);
    expect(whyBuildConsole(root)).toMatch(/^(src\/generated\/\S+|locales\/\S+) changed after the last build$/);
    expect(whyBuildServer(root)).toMatch(/^((server|src)\/generated\/\S+|locales\/\S+|manifests\/\S+) changed after the last build$/);
    // A broken manifest: refused, and the model on disk is the last good one.
    const before = generatedSnapshot(root);
    BREAKAGES[0][1](root);
    expect(prepareModel(root, (line) => lines.push(line))).toBe(false);
    expect(lines.at(-1)).toMatch(/not starting: the manifests above cannot be served/);
    expect(generatedSnapshot(root)).toBe(before);
  });

  // The one test that runs the real console build (vite build: slow).
  it('npm start after a manifest edit: regenerates, rebuilds the console and the server bundle, serves the new field; started again, it builds nothing', async () => {
    const root = scratchCopy();
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: path.join(root, 'data') };
    // A previous build: the server bundle, and a console marker newer than every source.
    await buildServer(root);
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'dist', 'index.html'), '<!doctype html>');
    addPriorityField(root);
    let run = npm(root, 'start', env);
    try {
      await ready(run, `http://127.0.0.1:${port}`);
      const output = run.output();
      expect(output).toMatch(/\[start\] building the console \(vite build\): (src\/generated\/\S+|locales\/\S+) changed after the last build/);
      expect(output).toMatch(/\[start\] building the server \(esbuild\): ((server|src)\/generated\/\S+|locales\/\S+|manifests\/\S+) changed after the last build/);
      await expectPriorityServed(`http://127.0.0.1:${port}`);
      // The console build carries the new field's label.
      const assets = fs.readdirSync(path.join(root, 'dist', 'assets'), { recursive: true }).map(String);
      expect(assets.some((file) => /\.js$/.test(file) && fs.readFileSync(path.join(root, 'dist', 'assets', file), 'utf8').includes('field.contact.priority'))).toBe(true);
    } finally {
      await run.stop();
    }
    run = npm(root, 'start', env);
    try {
      await ready(run, `http://127.0.0.1:${port}`);
      expect(run.output()).toMatch(/0 added, 0 changed, 0 removed/);
      expect(run.output()).toMatch(/dist\/ is up to date, no build needed/);
      expect(run.output()).toMatch(/dist-server\/ is up to date, no build needed/);
    } finally {
      await run.stop();
    }
  }, 900_000);
});
