import { loadConfig } from './config.ts';
import { createServer } from './http/create-server.ts';

/** After the grace period the connections are dropped; this long more for the jobs, database and Redis to close. */
const CLOSE_BACKSTOP_MS = 10_000;

/** Entry point: `npm run server` (API) or via scripts/start.ts (console build + API). */
const config = loadConfig();
const app = await createServer({ config });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal (Ctrl+C twice) does not wait for the graceful stop.
    if (stopping) {
      app.log.warn({ signal }, 'second stop signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    // In-flight requests get SHUTDOWN_GRACE_MS, then their connections are dropped (http/graceful-close.ts).
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    setTimeout(() => {
      app.log.error({ waitedMs: config.shutdownGraceMs + CLOSE_BACKSTOP_MS }, 'shutdown did not finish; exiting anyway');
      process.exit(1);
    }, config.shutdownGraceMs + CLOSE_BACKSTOP_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.fatal({ err: error }, 'could not start the server');
  process.exit(1);
}
