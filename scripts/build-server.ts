import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

/**
 * The API server as one ES module, `dist-server/main.mjs`, run by plain `node` (npm start).
 * Running it through tsx instead costs about 55 MB of resident memory per process (a loader
 * thread, and the compiled sources with their source maps kept for stack traces) and compiles
 * every file at each start. Packages stay external: native modules (better-sqlite3, argon2) and
 * pino's workers load from node_modules as usual. Not minified, so stack traces stay readable;
 * `NODE_OPTIONS=--enable-source-maps` maps them to the TypeScript sources.
 */
export const SERVER_BUNDLE = path.join('dist-server', 'main.mjs');
/**
 * The worker pool's entry (server/workers/cpu-worker.ts), bundled beside main.mjs: a worker thread
 * loads a file of its own, and the bundle has no TypeScript loader. The pool finds it next to
 * main.mjs (server/workers/run-cpu-task.ts).
 */
export const WORKER_BUNDLES = [path.join('dist-server', 'cpu-worker.mjs')];
const META = path.join('dist-server', 'meta.json');

/** Why the bundle must be (re)built, or null when it is newer than every file it was built from. */
export function whyBuildServer(root: string): string | null {
  const bundle = path.join(root, SERVER_BUNDLE);
  const meta = path.join(root, META);
  if (!fs.existsSync(bundle) || !fs.existsSync(meta)) return `${SERVER_BUNDLE} does not exist`;
  for (const worker of WORKER_BUNDLES) if (!fs.existsSync(path.join(root, worker))) return `${worker} does not exist`;
  const built = fs.statSync(bundle).mtimeMs;
  const inputs = Object.keys((JSON.parse(fs.readFileSync(meta, 'utf8')) as esbuild.Metafile).inputs);
  for (const input of [...inputs, 'package-lock.json']) {
    const file = path.join(root, input);
    if (!fs.existsSync(file)) return `${input} was removed since the last build`;
    if (fs.statSync(file).mtimeMs > built) return `${input} changed after the last build`;
  }
  return null;
}

export async function buildServer(root: string): Promise<void> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', 'cpu-worker': 'server/workers/cpu-worker.ts' },
    outdir: 'dist-server',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  // Each file is written beside its place and renamed over it: a server starting from the bundle
  // while it is rebuilt (the test suite runs files side by side; a deployment rebuilding under a
  // running supervisor) reads the old file or the new one, never a half-written one. main.mjs
  // goes last but for meta.json, which says the build is complete (whyBuildServer).
  const outputs = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('main.mjs')) - Number(b.path.endsWith('main.mjs')));
  fs.mkdirSync(path.join(root, 'dist-server'), { recursive: true });
  for (const output of outputs) writeAtomically(output.path, output.contents);
  writeAtomically(path.join(root, META), JSON.stringify(result.metafile));
}

function writeAtomically(file: string, contents: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/** Builds the bundle when it is missing or stale, saying why; returns its path. */
export async function ensureServerBuild(root: string, log: (line: string) => void = console.log): Promise<string> {
  const reason = whyBuildServer(root);
  if (reason) {
    log(`[start] building the server (esbuild): ${reason}`);
    await buildServer(root);
  } else {
    log('[start] dist-server/ is up to date, no build needed');
  }
  return path.join(root, SERVER_BUNDLE);
}

// `npm run build:server`: always rebuilds (for deployments that build once and run `node dist-server/main.mjs`).
if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer(process.cwd());
  console.log(`[build:server] wrote ${SERVER_BUNDLE}`);
}
