import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureServerBuild } from './build-server.ts';

/**
 * First half of `npm start`: builds the console when dist/ is missing or older than its sources,
 * and the server bundle when dist-server/ is (scripts/build-server.ts). The second half,
 * `node dist-server/main.mjs`, then starts the API server, which serves dist/ at /.
 */
const root = process.cwd();
const dist = path.join(root, 'dist');
const entry = path.join(root, 'src', 'main.tsx');
// The console's sources, and the build's own plugins (vite.config.ts).
const SOURCES = ['src', 'runtime', 'index.html', 'locales', 'public', 'contract', 'vite.config.ts', 'scripts/prerender-sign-in.ts', 'scripts/texts-chunks.ts', 'scripts/theme-variables-css.ts'];

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

function whyBuild(): string | null {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return 'dist/index.html does not exist';
  const built = fs.statSync(index).mtimeMs;
  for (const source of SOURCES) {
    const newest = newestMtime(path.join(root, source));
    if (newest.time > built) return `${path.relative(root, newest.file!)} changed after the last build`;
  }
  return null;
}

if (!fs.existsSync(entry)) {
  console.log('[start] src/main.tsx does not exist yet: skipping the console build, starting the API only');
} else {
  const reason = whyBuild();
  if (reason) {
    console.log(`[start] building the console (vite build): ${reason}`);
    const result = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit', cwd: root });
    if (result.status !== 0) {
      console.error(`[start] vite build failed (exit ${result.status}); not starting`);
      process.exit(result.status ?? 1);
    }
  } else {
    console.log('[start] dist/ is up to date, no build needed');
  }
}

await ensureServerBuild(root);
