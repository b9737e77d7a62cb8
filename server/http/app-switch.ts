import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * One listening socket whose requests go to whichever app is current when each arrives, so a
 * running server can swap in an app built on a new model (the schema studio's live apply under
 * `npm start`, server/studio/running-apply.ts) without refusing a request: the new app takes the
 * next request once it is ready; the old one finishes the requests it started, then closes.
 * `npm run dev` (scripts/dev-server.ts) swaps its reloads through it too.
 */
export interface AppSwitch {
  /** Must be called on each app before its ready(): its close then waits for its own requests. */
  track(app: FastifyInstance, graceMs: number): void;
  /** Makes `next` (tracked and ready) the app of every new request; the previous one closes once drained. */
  use(next: FastifyInstance): void;
  current(): FastifyInstance;
  /** Whether an app serves yet. */
  has(): boolean;
  listen(port: number, host: string): Promise<void>;
  /** The port it listens on (port 0 asked for any). */
  port(): number;
  /** Stops listening and closes the current app and those still draining. */
  close(): Promise<void>;
}

export interface AppSwitchOptions {
  log?: (line: string) => void;
  /** Answers a request itself instead of the apps (true: answered), e.g. the dev server's event stream. */
  intercept?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

export function createAppSwitch(options: AppSwitchOptions = {}): AppSwitch {
  const log = options.log ?? console.error;
  let app: FastifyInstance | null = null;
  const inFlight = new WeakMap<FastifyInstance, { count: number; drained: (() => void) | null }>();
  const closing = new Set<Promise<void>>();

  const listener = http.createServer((request: IncomingMessage, response: ServerResponse) => {
    if (options.intercept?.(request, response)) return;
    const current = app!;
    const state = inFlight.get(current)!;
    state.count += 1;
    response.once('close', () => {
      state.count -= 1;
      if (state.count === 0) state.drained?.();
    });
    current.server.emit('request', request, response);
  });
  // Fastify's default, which its own server would have had (a keep-alive connection outlives swaps).
  listener.keepAliveTimeout = 72_000;

  function retire(previous: FastifyInstance): void {
    const done = previous
      .close()
      .catch((error: unknown) => log(`closing the previous app failed: ${(error as Error).stack ?? error}`))
      .finally(() => closing.delete(done));
    closing.add(done);
  }

  return {
    track(next, graceMs) {
      const state = { count: 0, drained: null as (() => void) | null };
      inFlight.set(next, state);
      // Its last preClose hook: its own (graceful close, job queue) have run; its database closes
      // after this, so the requests it is still answering finish first.
      next.addHook('preClose', async () => {
        if (state.count === 0) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs).unref();
          state.drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      });
    },
    use(next) {
      if (!inFlight.has(next)) throw new Error('app-switch: call track(app) before the app is ready, then use(app)');
      const previous = app;
      app = next;
      if (previous) retire(previous);
    },
    has() {
      return app !== null;
    },
    current() {
      if (!app) throw new Error('app-switch: no app yet (call use(app) first)');
      return app;
    },
    listen(port, host) {
      return new Promise<void>((resolve, reject) => listener.once('error', reject).listen(port, host, () => resolve()));
    },
    port() {
      return (listener.address() as { port: number }).port;
    },
    async close() {
      listener.close();
      listener.closeIdleConnections();
      await Promise.all([...closing, app?.close()]);
    },
  };
}
