import http from 'node:http';
import path from 'node:path';
import type { Plugin } from 'vite';
import { ConsoleReloadGate } from './console-reload-gate.ts';

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
 * (`/__forja-dev/events`) says the new model serves (scripts/console-reload-gate.ts decides).
 * With no dev server to ask (the console against another API), it reloads after the burst.
 */
export function devLive(apiTarget: string): Plugin {
  let gate: ConsoleReloadGate | null = null;
  let burst: NodeJS.Timeout | undefined;
  let fallback: NodeJS.Timeout | undefined;
  let stopped = false;
  /** What a model change rewrites: the generated modules and the texts (the API applies both). */
  let modelDirs: string[] = [];

  function listen(): void {
    if (stopped || !gate) return;
    const request = http.get(`${apiTarget}/__forja-dev/events`, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        // Not the dev server (FORJA_API_URL names another one): ask again now and then.
        setTimeout(listen, RETRY_MS * 10).unref();
        return;
      }
      gate!.connected = true;
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = /^event: (\w+)/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (event === 'applied' || event === 'failed') {
            clearTimeout(fallback);
            gate!.apiSaid(event);
          }
        }
      });
      response.on('close', () => {
        gate!.connected = false;
        setTimeout(listen, RETRY_MS).unref();
      });
    });
    request.on('error', () => {
      gate!.connected = false;
      setTimeout(listen, RETRY_MS).unref();
    });
  }

  return {
    name: 'forja-dev-live',
    apply: 'serve',
    configResolved(config) {
      modelDirs = [path.join(config.root, 'src', 'generated') + path.sep, path.join(config.root, 'locales') + path.sep];
    },
    configureServer(server) {
      gate = new ConsoleReloadGate((why) => {
        clearTimeout(fallback);
        server.config.logger.info(`console reloaded: ${why}`, { timestamp: true });
        server.ws.send({ type: 'full-reload', path: '*' });
      });
      listen();
      server.httpServer?.once('close', () => (stopped = true));
    },
    hotUpdate({ file }) {
      if (!gate || this.environment.name !== 'client' || !modelDirs.some((dir) => path.normalize(file).startsWith(dir))) return;
      gate.changed();
      clearTimeout(burst);
      burst = setTimeout(() => {
        if (gate!.burstEnded() !== 'waiting') return;
        clearTimeout(fallback);
        fallback = setTimeout(() => gate!.gaveUp(API_WAIT_MS), API_WAIT_MS);
      }, BURST_MS);
      return [];
    },
  };
}
