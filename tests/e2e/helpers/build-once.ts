// The e2e project's globalSetup: builds what `npm start` serves once per run — the console
// (vite build, into a temp folder so a developer's dist/ is left alone) and the server bundle
// (dist-server/main.mjs, as npm start builds it) — and hands their paths to every test file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureServerBuild } from '../../../scripts/build-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDistDir: string | undefined;
    e2eServerBundle: string | undefined;
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

/** The server bundle npm start runs, rebuilt when its sources changed. */
export function buildServerBundle(): Promise<string> {
  return ensureServerBuild(root, () => undefined);
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.E2E_CONSOLE === 'dev') {
    project.provide('e2eDistDir', undefined);
    project.provide('e2eServerBundle', undefined);
    return () => undefined;
  }
  const distDir = buildConsole();
  project.provide('e2eDistDir', distDir);
  project.provide('e2eServerBundle', await buildServerBundle());
  return () => fs.rmSync(distDir, { recursive: true, force: true });
}
