import fs from 'node:fs';
import path from 'node:path';

/**
 * What the console build (dist/) is made from: its sources, the generated model in src/generated
 * (rewritten by scripts/prepare-model.ts when a manifest or locale changes), the locales, and the
 * build's own plugins (vite.config.ts).
 */
export const CONSOLE_SOURCES = ['src', 'runtime', 'index.html', 'locales', 'public', 'contract', 'vite.config.ts', 'scripts/prerender-sign-in.ts', 'scripts/texts-chunks.ts', 'scripts/theme-variables-css.ts'];

/** Newest modification time under a file or folder (0 when absent). */
function newestMtime(target: string): { time: number; file: string | null } {
  if (!fs.existsSync(target)) return { time: 0, file: null };
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return { time: stat.mtimeMs, file: target };
  let newest: { time: number; file: string | null } = { time: 0, file: null };
  for (const name of fs.readdirSync(target)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const candidate = newestMtime(path.join(target, name));
    if (candidate.time > newest.time) newest = candidate;
  }
  return newest;
}

/** Why dist/ must be (re)built, or null when dist/index.html is newer than every source. */
export function whyBuildConsole(root: string): string | null {
  const index = path.join(root, 'dist', 'index.html');
  if (!fs.existsSync(index)) return 'dist/index.html does not exist';
  const built = fs.statSync(index).mtimeMs;
  for (const source of CONSOLE_SOURCES) {
    const newest = newestMtime(path.join(root, source));
    if (newest.time > built) return `${path.relative(root, newest.file!)} changed after the last build`;
  }
  return null;
}
