import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureServerBuild } from './build-server.ts';
import { prepareModel } from './prepare-model.ts';
import { whyBuildConsole } from './why-build-console.ts';

/**
 * `npm start` (first half) and `npm run server` (`--sources`).
 *
 * Both first regenerate and validate the model from manifests/ and locales/ (prepare-model.ts):
 * a manifest the generator refuses stops here with its message and exit code 1, so nothing is
 * served on a broken model, and an edited one is what gets built and served.
 *
 * npm start then builds the console when dist/ is older than its sources (the generated model
 * included) and the server bundle when dist-server/ is (build-server.ts); the second half,
 * `node dist-server/main.mjs`, starts the API server, which serves dist/ at /.
 * npm run server instead starts the server from its TypeScript sources, in this process, with
 * whatever console build exists.
 */
const root = process.cwd();
const fromSources = process.argv.includes('--sources');

if (!prepareModel(root)) process.exit(1);

if (fromSources) {
  // Imported only now: the server's modules read the model generated just above.
  await import('../server/main.ts');
} else {
  if (!fs.existsSync(path.join(root, 'src', 'main.tsx'))) {
    console.log('[start] src/main.tsx does not exist yet: skipping the console build, starting the API only');
  } else {
    const reason = whyBuildConsole(root);
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
}
