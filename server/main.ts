import { loadConfig } from './config.ts';
import { createServer } from './http/create-server.ts';

/** Entry point: `npm run server` (API) or via scripts/start.ts (console build + API). */
const config = loadConfig();
const app = await createServer({ config });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
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
