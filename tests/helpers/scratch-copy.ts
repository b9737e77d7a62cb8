import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Build outputs, data and tooling state: a scratch copy starts from the sources alone. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'dist-server', 'data', 'test-results', 'coverage', '.env']);

/**
 * A copy of the repository's sources in a new temporary folder, its node_modules a link to this
 * one's: for tests and benchmarks that edit manifests and run npm scripts without touching the
 * working tree. The caller removes it.
 */
export function scratchCopy(prefix = 'forja-scratch-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const name of fs.readdirSync(ROOT)) {
    if (NOT_COPIED.has(name)) continue;
    fs.cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true, preserveTimestamps: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}
