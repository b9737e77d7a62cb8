import http from 'node:http';
import path from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';

/** How long a model change waits for the API's word before the console reloads anyway. */
const API_WAIT_MS = 8000;
/** A save writes several generated files within a few milliseconds: one reload for the burst. */
const BURST_MS = 40;
const RETRY_MS = 1000;

/**
 * The console half of a live model change in `npm run dev` (scripts/dev-server.ts is the API half).
 * The generator rewrites several files of src/generated/ per save (and a new field brings its
 * labels to locales/); left alone, Vite reloads the page for each, at once, while the API still
 * serves the old model (a form with the new field posting to a server that refuses it). Instead:
 * changes there send nothing, and the page reloads once, when the dev server's event stream
 * (`/__forja-dev/events`) says the new model serves. With no dev server to ask (the console
 * against another API), it reloads after the burst.
 */
export function devLive(apiTarget: string): Plugin {
  let server: ViteDevServer | null = null;
  let connected = false;
  let pending = false;
  /** When the API applied a model before this watcher saw its files (a busy machine). */
  let appliedBeforeSeen = 0;
  let burst: NodeJS.Timeout | undefined;
  let fallback: NodeJS.Timeout | undefined;
  let stopped = false;
  /** What a model change rewrites: the generated modules and the texts (the API applies both). */
  let modelDirs: string[] = [];

  function reload(why: string): void {
    clearTimeout(fallback);
    if (!pending || !server) return;
    pending = false;
    server.config.logger.info(`console reloaded: ${why}`, { timestamp: true });
    server.ws.send({ type: 'full-reload', path: '*' });
  }

  function listen(): void {
    if (stopped) return;
    const request = http.get(`${apiTarget}/__forja-dev/events`, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        // Not the dev server (FORJA_API_URL names another one): ask again now and then.
        setTimeout(listen, RETRY_MS * 10).unref();
        return;
      }
      connected = true;
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = /^event: (\w+)/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (event === 'applied' || event === 'failed') {
            if (!pending) appliedBeforeSeen = Date.now();
            reload(event === 'applied' ? 'the API serves the new model' : 'the API could not apply the model (see its output)');
          }
        }
      });
      response.on('close', () => {
        connected = false;
        setTimeout(listen, RETRY_MS).unref();
      });
    });
    request.on('error', () => {
      connected = false;
      setTimeout(listen, RETRY_MS).unref();
    });
  }

  return {
    name: 'forja-dev-live',
    apply: 'serve',
    configResolved(config) {
      modelDirs = [path.join(config.root, 'src', 'generated') + path.sep, path.join(config.root, 'locales') + path.sep];
    },
    configureServer(dev) {
      server = dev;
      listen();
      dev.httpServer?.once('close', () => (stopped = true));
    },
    hotUpdate({ file }) {
      if (this.environment.name !== 'client' || !modelDirs.some((dir) => path.normalize(file).startsWith(dir))) return;
      pending = true;
      clearTimeout(burst);
      burst = setTimeout(() => {
        if (!connected || Date.now() - appliedBeforeSeen < 2000) {
          appliedBeforeSeen = 0;
          reload(connected ? 'the API serves the new model' : 'src/generated changed');
        } else {
          clearTimeout(fallback);
          fallback = setTimeout(() => reload(`no word from the API in ${API_WAIT_MS / 1000} s`), API_WAIT_MS);
        }
      }, BURST_MS);
      return [];
    },
  };
}
