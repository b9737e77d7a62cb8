import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { EmittedFiles } from './emit/emitted-files.ts';

/** The folders the generator owns outright: anything in them it did not emit is stale. */
export const GENERATED_DIRS = ['src/generated', 'server/generated'];

export interface ArtefactDiff {
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: string[];
}

function listFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Compares what would be generated with what is on disk. */
export function diffArtefacts(root: string, files: EmittedFiles): ArtefactDiff {
  const diff: ArtefactDiff = { added: [], changed: [], removed: [], unchanged: [] };
  for (const [file, content] of files) {
    const full = path.join(root, file);
    if (!existsSync(full)) diff.added.push(file);
    else if (readFileSync(full, 'utf8') !== content) diff.changed.push(file);
    else diff.unchanged.push(file);
  }
  for (const dir of GENERATED_DIRS) {
    for (const file of listFiles(root, dir)) if (!files.has(file)) diff.removed.push(file);
  }
  return diff;
}

/** Writes only what changed (so watchers and Vite see real edits), each file atomically. */
export function writeArtefacts(root: string, files: EmittedFiles, diff: ArtefactDiff): void {
  for (const file of [...diff.added, ...diff.changed]) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    const temp = `${full}.${process.pid}.tmp`;
    writeFileSync(temp, files.get(file)!);
    renameSync(temp, full);
  }
  for (const file of diff.removed) rmSync(path.join(root, file));
}
