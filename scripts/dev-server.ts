import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { watch } from 'chokidar';
import { runOnce } from '../generator/cli.ts';
import { installLiveApply, type LiveApplyResult } from '../server/dev/live-apply.ts';
import { createAppSwitch } from '../server/http/app-switch.ts';

/**
 * The API half of `npm run dev`: generator and server in one process, so a saved manifest is live
 * in about a second, with no restart.
 *
 * - A manifest or locale saved: the generator runs (as `npm run generate`); a manifest it refuses
 *   prints its message and the running server keeps the last good model. Otherwise a new app is
 *   built in this process on the same database (its start migrates, printing the plan, and keeps
 *   the data) from the project's modules, re-evaluating only those whose file changed and those
 *   importing them (scripts/dev-reload-hooks.mjs); packages stay loaded.
 * - A server source (server/, contract/, runtime/) saved: the same reload.
 * - One listening socket for the whole session: each request goes to the app current when it
 *   arrives. A new app takes the next request once it is ready; the old one finishes the requests
 *   it started, then closes. No request is refused during a reload.
 * - Once a new app serves, `/__forja-dev/events` (an event stream on the same port) says so: the
 *   Vite dev server (scripts/vite-dev-live.ts) then reloads the console once, on the new model.
 * A process restart instead would load every package again: about 2 s on an idle machine, 20 s
 * on a busy one. A reload that fails (a syntax error in a source) leaves the old app serving.
 * The studio applies its saves through the same path: server/dev/live-apply.ts.
 */
const hooks = new MessageChannel();
register('./dev-reload-hooks.mjs', { parentURL: import.meta.url, data: { port: hooks.port2 }, transferList: [hooks.port2] });
// Development: the schema studio is on (server/studio/studio-config.ts) and its saves reach the watcher below.
process.env.FORJA_DEV ??= 'true';
/** What the hooks re-evaluated for the last reload (posted when its entry is resolved). */
let moduleStats = { reloaded: 0, kept: 0 };
hooks.port1.on('message', (stats: typeof moduleStats) => (moduleStats = stats));
hooks.port1.unref();

const root = process.cwd();
const log = (line: string) => console.log(`[dev] ${line}`);
const GENERATED = [path.join(root, 'server', 'generated'), path.join(root, 'src', 'generated')];
let version = 0;
let reloading: Promise<unknown> = Promise.resolve();
let stopping = false;

function fresh<T>(file: string): Promise<T> {
  return import(`${pathToFileURL(path.join(root, file)).href}?forja-dev=${version}`) as Promise<T>;
}

/** Server-sent events to the Vite dev server: `applied` once a new model serves. */
const subscribers = new Set<ServerResponse>();
function subscribe(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  response.write(`event: hello\ndata: ${JSON.stringify({ version })}\n\n`);
  subscribers.add(response);
  response.once('close', () => subscribers.delete(response));
}
function announce(event: 'applied' | 'failed', data: Record<string, unknown>): void {
  for (const response of subscribers) response.write(`event: ${event}\ndata: ${JSON.stringify({ version, ...data })}\n\n`);
}

/** The one socket: every request to the app current when it arrives, the event stream aside (server/http/app-switch.ts). */
const appSwitch = createAppSwitch({
  log,
  intercept: (request, response) => {
    if (request.url !== '/__forja-dev/events') return false;
    subscribe(response);
    return true;
  },
});

/** Builds the app from fresh modules; the old one serves until the new one is ready. */
async function reload(reason: string): Promise<LiveApplyResult> {
  const started = performance.now();
  version += 1;
  try {
    const { loadConfig } = await fresh<typeof import('../server/config.ts')>('server/config.ts');
    const { createServer } = await fresh<typeof import('../server/http/create-server.ts')>('server/http/create-server.ts');
    const config = loadConfig();
    if (!appSwitch.has()) {
      const { checkStartup } = await fresh<typeof import('../server/startup/check-startup.ts')>('server/startup/check-startup.ts');
      await checkStartup(config);
    }
    const loaded = performance.now();
    const next = await createServer({ config });
    appSwitch.track(next, config.shutdownGraceMs);
    await next.ready();
    const created = performance.now();
    const previous = appSwitch.has();
    appSwitch.use(next);
    if (!previous) await appSwitch.listen(config.port, config.host);
    const ms = Math.round(performance.now() - started);
    const span = (from: number, to: number) => Math.round(to - from);
    log(
      `${previous ? 'reloaded' : 'started'} (${reason}) in ${ms} ms: modules ${span(started, loaded)} (${moduleStats.reloaded} re-evaluated, ${moduleStats.kept} kept), app ${span(loaded, created)}` +
        (previous ? '' : `; listening on http://${config.host}:${appSwitch.port()}`),
    );
    announce('applied', { reason, ms });
    return { applied: true, outcome: 'applied', ms };
  } catch (error) {
    if (!appSwitch.has()) throw error;
    log(`reload failed (${reason}); the previous server keeps serving: ${(error as Error).stack ?? error}`);
    announce('failed', { reason });
    return { applied: false, outcome: 'failed', message: (error as Error).message, ms: Math.round(performance.now() - started) };
  }
}

function queue<T>(run: () => Promise<T>): Promise<T> {
  const next = reloading.then(run);
  reloading = next.catch(() => undefined);
  return next;
}

/** What the generated folders hold now (a save the generator turns into no change reloads nothing). */
function generatedState(): string {
  const lines: string[] = [];
  for (const dir of GENERATED) {
    for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
      const stat = fs.statSync(path.join(dir, name));
      if (stat.isFile()) lines.push(`${name}:${stat.size}:${stat.mtimeMs}`);
    }
  }
  return lines.sort().join('\n');
}

/**
 * Regenerates, then reloads when the generator accepted the model and changed something (or a
 * locale changed: the server reads them too). The generator's refusal is printed as the CLI
 * prints it, and returned (the studio shows it).
 */
function applyModel(reason: string, alwaysReload = false): Promise<LiveApplyResult> {
  return queue(async () => {
    const started = performance.now();
    const before = generatedState();
    const printed: string[] = [];
    const printError = console.error;
    console.error = (...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
      printError(...args);
    };
    let code: number;
    try {
      code = runOnce({ root, check: false, watch: false, plan: false, quiet: true });
    } finally {
      console.error = printError;
    }
    const generated = performance.now();
    if (code !== 0) {
      log(appSwitch.has() ? 'the running server keeps the last good model' : 'not started: waiting for a manifest the generator accepts');
      return { applied: false, outcome: 'refused', message: printed.join('\n'), ms: Math.round(generated - started) };
    }
    if (appSwitch.has() && !alwaysReload && generatedState() === before) {
      log(`nothing to apply (${reason}): the generated model is unchanged`);
      return { applied: false, outcome: 'unchanged', ms: Math.round(generated - started) };
    }
    const result = await reload(reason);
    return { ...result, ms: Math.round(performance.now() - started) };
  });
}
installLiveApply((reason) => (stopping ? Promise.resolve({ applied: false, outcome: 'failed', message: 'the dev server is stopping', ms: 0 }) : applyModel(reason)));

/** Editors save in bursts (write, rename, chmod): one pass per burst. */
function debounced(run: (files: string[]) => void): (file: string) => void {
  let timer: NodeJS.Timeout | undefined;
  let files = new Set<string>();
  return (file) => {
    files.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...files];
      files = new Set();
      run(batch);
    }, 30);
  };
}
const named = (files: string[]) => files.map((file) => path.relative(root, file)).join(', ');

(await import('../server/config/load-env-file.ts')).loadEnvFile();
const first = await applyModel('first start', true).catch((error: unknown) => {
  // As server/main.ts: the variable and the fix, no stack.
  const fix = (error as { fix?: string }).fix;
  console.error(`[dev] cannot start: ${(error as Error).message}${fix ? `\n  fix: ${fix}` : ''}`);
  process.exit(1);
});
if (first.outcome === 'refused') log('the manifests above cannot be served: fix them (this keeps watching)');

const onModelSaved = debounced((files) => {
  console.log(`\n↻ ${named(files)} changed`);
  // A locale can change what the server says without changing a generated file.
  void applyModel(`${named(files)} saved`, !appSwitch.has() || files.some((file) => file.startsWith(path.join(root, 'locales'))));
});
watch([path.join(root, 'manifests'), path.join(root, 'locales')], { ignoreInitial: true }).on('all', (_event, file) => {
  if (file.endsWith('.json')) onModelSaved(file);
});

const onSourceSaved = debounced((files) => {
  if (appSwitch.has()) void queue(() => reload(`${named(files)} saved`));
});
watch(['server', 'contract', 'runtime'].map((dir) => path.join(root, dir)), {
  ignoreInitial: true,
  ignored: (file) => GENERATED.some((dir) => file.startsWith(dir)),
}).on('all', (_event, file) => {
  if (/\.(ts|json)$/.test(file)) onSourceSaved(file);
});
log('watching manifests/, locales/, server/, contract/ and runtime/ (Ctrl+C to stop)');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    for (const response of subscribers) response.end();
    void reloading
      .then(() => appSwitch.close())
      .then(() => process.exit(0), () => process.exit(1));
  });
}
