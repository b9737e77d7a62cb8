import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'dist-server', 'data', 'coverage', '.vite']);

/** A copy of the project (without node_modules, which is linked) that a test may change freely. */
export function scratchProject(prefix: string): { root: string; run: (command: string, args: string[]) => { status: number | null; stdout: string; stderr: string }; remove: () => void } {
  const root = mkdtempSync(path.join(os.tmpdir(), `forja-${prefix}-`));
  cpSync(ROOT, root, { recursive: true, filter: (source) => !SKIP.has(path.basename(source)) || path.dirname(source) !== ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return {
    root,
    // Commands as the README writes them, run in the copy; the output is kept for the failure message.
    run: (command, args) => {
      const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 120_000 });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
