import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Aborted when the server starts closing: long-lived responses (the chat's event stream)
     * listen to it and end, so a shutdown does not wait for them.
     */
    shutdownSignal: AbortSignal;
  }
}

/** A request still unfinished when the grace period ran out: its connection was dropped. */
export interface CutRequest {
  method: string;
  /** Its path, without the query. */
  url: string;
  /** How long it had been running when it was cut. */
  elapsedMs: number;
}

export interface GracefulClose {
  /** What the last close had to cut when its grace period ran out (nothing when every request ended in time). */
  readonly cut: { requests: readonly CutRequest[]; connections: number };
}

/**
 * Bounds `app.close()`. Node's server.close() closes only the keep-alive connections idle at that
 * moment and then waits for every other one to end. A response that was still being written then
 * (an export download whose last bytes had reached the client but whose file stream had not
 * ended yet) finished a moment later on a keep-alive connection that nobody closed: the close
 * waited for the keep-alive timeout (~72 s), or for ever if the client kept the connection. So,
 * once the close starts:
 * - `app.shutdownSignal` is aborted, so long-lived streams (chat events) end now;
 * - responses not started yet say `Connection: close`, and each connection is closed once its
 *   request and response are both done;
 * - after `graceMs`, the connections still open are dropped and what was cut is logged.
 * Must be registered before any other preClose hook (the job queue's waits up to 5 s for its jobs).
 */
export function registerGracefulClose(app: FastifyInstance, options: { graceMs: number }): GracefulClose {
  // Response -> when its request arrived. One shared 'close' listener and no object per request:
  // this runs on every request (a once() wrapper per response showed in the request path's profile).
  const inFlight = new Map<ServerResponse, number>();
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  let cut: GracefulClose['cut'] = { requests: [], connections: 0 };
  let closing = false;
  let graceTimer: NodeJS.Timeout | null = null;
  const closeIdle = () => app.server.closeIdleConnections();

  app.decorate('shutdownSignal', shutdown.signal);

  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // The server's own 'request' event (not a Fastify hook): it also sees hijacked replies and
  // requests Fastify answers itself (404, 503 while closing).
  function finished(this: ServerResponse): void {
    inFlight.delete(this);
    if (!closing) return;
    // Its connection is idle once the request body (if any is still arriving) has been read.
    if (this.req.complete) closeIdle();
    else this.req.once('end', closeIdle);
  }
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(response, Date.now());
    if (closing && !response.headersSent) response.setHeader('connection', 'close');
    // 'close' is emitted once per response.
    response.on('close', finished);
  });

  app.addHook('preClose', async () => {
    closing = true;
    shutdown.abort(new Error('The server is shutting down'));
    for (const response of inFlight.keys()) if (!response.headersSent) response.setHeader('connection', 'close');
    cut = { requests: [], connections: 0 };
    graceTimer = setTimeout(() => {
      const now = Date.now();
      // The path only: a query may hold a credential (an export link's signature).
      const requests = [...inFlight].map(([{ req }, started]) => ({ method: req.method ?? '?', url: (req.url ?? '?').split('?')[0], elapsedMs: now - started }));
      cut = { requests, connections: sockets.size };
      if (sockets.size > 0) {
        app.log.warn(
          { graceMs: options.graceMs, connections: sockets.size, requests },
          `shutdown: ${sockets.size} connection(s) still open after the grace period (${requests.length} request(s) unfinished); dropped`,
        );
      }
      app.server.closeAllConnections();
    }, options.graceMs);
    graceTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (graceTimer) clearTimeout(graceTimer);
    graceTimer = null;
  });

  return {
    get cut() {
      return cut;
    },
  };
}
