import path from 'node:path';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { watch } from 'chokidar';
import type { FastifyInstance } from 'fastify';
import { runOnce } from '../generator/cli.ts';

/**
 * The API half of `npm run dev`: generator and server in one process, so a saved manifest is live
 * in about a second, with no restart.
 *
 * - A manifest or locale saved: the generator runs (as `npm run generate`); a manifest it refuses
 *   prints its message and the running server keeps the last good model. Otherwise the server is
 *   reloaded in this process: a fresh copy of the project's modules (scripts/dev-reload-hooks.mjs)
 *   builds a new app on the same database (its start migrates, printing the plan, and keeps the
 *   data), the old app closes and the new one listens on the same port.
 * - A server source (server/, contract/, runtime/) saved: the same reload.
 * A process restart instead would load every package again: about 2 s on an idle machine, 20 s
 * on a busy one. A reload that fails (a syntax error in a source) leaves the old app serving.
 */
register('./dev-reload-hooks.mjs', import.meta.url);
// Development: the schema studio is on (server/studio/studio-config.ts) and its saves reach the watcher below.
process.env.FORJA_DEV ??= 'true';

const root = process.cwd();
const log = (line: string) => console.log(`[dev] ${line}`);
let version = 0;
let app: FastifyInstance | null = null;
let reloading: Promise<void> = Promise.resolve();
let stopping = false;

function fresh<T>(file: string): Promise<T> {
  return import(`${pathToFileURL(path.join(root, file)).href}?forja-dev=${version}`) as Promise<T>;
}

/** Builds the app from fresh modules; the old one serves until the new one is ready. */
async function reload(reason: string): Promise<void> {
  const started = performance.now();
  version += 1;
  try {
    const { loadConfig } = await fresh<typeof import('../server/config.ts')>('server/config.ts');
    const { createServer } = await fresh<typeof import('../server/http/create-server.ts')>('server/http/create-server.ts');
    const config = loadConfig();
    if (!app) {
      const { checkStartup } = await fresh<typeof import('../server/startup/check-startup.ts')>('server/startup/check-startup.ts');
      await checkStartup(config);
    }
    const loaded = performance.now();
    const next = await createServer({ config });
    const created = performance.now();
    const previous = app;
    app = next;
    if (previous) await previous.close();
    await next.listen({ port: config.port, host: config.host });
    const ms = (from: number, to: number) => Math.round(to - from);
    log(`${previous ? 'reloaded' : 'started'} (${reason}) in ${ms(started, performance.now())} ms: modules ${ms(started, loaded)}, app ${ms(loaded, created)}, switch ${ms(created, performance.now())}`);
  } catch (error) {
    if (!app) throw error;
    log(`reload failed (${reason}); the previous server keeps serving: ${(error as Error).stack ?? error}`);
  }
}

function queueReload(reason: string): void {
  reloading = reloading.then(() => (stopping ? undefined : reload(reason)));
}

/** Editors save in bursts (write, rename, chmod): one pass per burst. */
function debounced(run: (file: string) => void): (file: string) => void {
  let timer: NodeJS.Timeout | undefined;
  return (file) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(file), 50);
  };
}

(await import('../server/config/load-env-file.ts')).loadEnvFile();
if (runOnce({ root, check: false, watch: false, plan: false, quiet: true }) !== 0) {
  log('the manifests above cannot be served: fix them (this keeps watching)');
} else {
  await reload('first start').catch((error: unknown) => {
    // As server/main.ts: the variable and the fix, no stack.
    const fix = (error as { fix?: string }).fix;
    console.error(`[dev] cannot start: ${(error as Error).message}${fix ? `\n  fix: ${fix}` : ''}`);
    process.exit(1);
  });
}

const onModelSaved = debounced((file) => {
  console.log(`\n↻ ${path.relative(root, file)} changed`);
  if (runOnce({ root, check: false, watch: false, plan: false, quiet: true }) !== 0) {
    log(app ? 'the running server keeps the last good model' : 'not started: waiting for a manifest the generator accepts');
    return;
  }
  queueReload(`${path.relative(root, file)} saved`);
});
watch([path.join(root, 'manifests'), path.join(root, 'locales')], { ignoreInitial: true }).on('all', (_event, file) => {
  if (file.endsWith('.json')) onModelSaved(file);
});

const onSourceSaved = debounced((file) => queueReload(`${path.relative(root, file)} saved`));
const generated = [path.join(root, 'server', 'generated'), path.join(root, 'src', 'generated')];
watch(['server', 'contract', 'runtime'].map((dir) => path.join(root, dir)), {
  ignoreInitial: true,
  ignored: (file) => generated.some((dir) => file.startsWith(dir)),
}).on('all', (_event, file) => {
  if (/\.(ts|json)$/.test(file)) onSourceSaved(file);
});
log('watching manifests/, locales/, server/, contract/ and runtime/ (Ctrl+C to stop)');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void reloading.then(() => app?.close()).then(() => process.exit(0), () => process.exit(1));
  });
}
