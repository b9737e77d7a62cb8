// The e2e project's globalSetup: builds what `npm start` serves once per run — the console
// (vite build, into a temp folder so a developer's dist/ is left alone) and the server bundle
// (dist-server/main.mjs, as npm start builds it) — and hands their paths to every test file.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureServerBuild } from '../../../scripts/build-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDistDir: string | undefined;
    e2eServerBundle: string | undefined;
    /** Consoles built for another build-time environment, by consoleVariant(env). */
    e2eConsoleVariants: Record<string, string>;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');

/** `vite build` of the console into a fresh temp folder (build-time env such as VITE_TRANSPORT); returns the folder. */
export function buildConsole(env: NodeJS.ProcessEnv = {}): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-e2e-console-'));
  const built = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir'], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  if (built.status !== 0) throw new Error(`vite build failed\n${built.stdout}\n${built.stderr}`);
  return outDir;
}

/** buildConsole without blocking, so the run's console builds go side by side. */
function buildConsoleAsync(env: NodeJS.ProcessEnv = {}): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-e2e-console-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(outDir) : reject(new Error(`vite build failed (${JSON.stringify(env)})\n${output}`))));
  });
}

/**
 * The build-time environments besides the default that e2e files ask startApp for (consoleEnv):
 * built here with the default console, at the same time, instead of inside that file's beforeAll.
 */
const CONSOLE_VARIANTS: NodeJS.ProcessEnv[] = [
  { VITE_TRANSPORT: 'graphql' }, // crud-graphql.test.ts
];

/** The key of a console build-time environment in e2eConsoleVariants. */
export function consoleVariant(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
}

/** The server bundle npm start runs, rebuilt when its sources changed. */
export function buildServerBundle(): Promise<string> {
  return ensureServerBuild(root, () => undefined);
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.E2E_CONSOLE === 'dev') {
    project.provide('e2eDistDir', undefined);
    project.provide('e2eServerBundle', undefined);
    project.provide('e2eConsoleVariants', {});
    return () => undefined;
  }
  const built = await Promise.allSettled([buildConsoleAsync(), ...CONSOLE_VARIANTS.map((env) => buildConsoleAsync(env))]);
  const dirs = built.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const remove = () => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  const failed = built.find((result) => result.status === 'rejected');
  if (failed) {
    remove();
    throw failed.reason;
  }
  const [distDir, ...variantDirs] = dirs;
  project.provide('e2eDistDir', distDir);
  project.provide('e2eConsoleVariants', Object.fromEntries(CONSOLE_VARIANTS.map((env, i) => [consoleVariant(env), variantDirs[i]])));
  project.provide('e2eServerBundle', await buildServerBundle());
  return remove;
}
