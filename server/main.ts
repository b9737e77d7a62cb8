import { loadEnvFile } from './config/load-env-file.ts';
import { loadConfig, wantsStartupStack, type ServerConfig } from './config.ts';
import { createServer } from './http/create-server.ts';
import { checkStartup } from './startup/check-startup.ts';
import { StartupError } from './startup/startup-error.ts';
import { createAppSwitch, type AppSwitch } from './http/app-switch.ts';
import { loadStudioConfig } from './studio/studio-config.ts';
import { installRunningApply } from './studio/running-apply.ts';

/** After the grace period the connections are dropped; this long more for the jobs, database and Redis to close. */
const CLOSE_BACKSTOP_MS = 10_000;

/**
 * A start that cannot succeed: one line naming the cause (the variable, for a StartupError), one
 * with the fix, and the stack only at LOG_LEVEL=debug; exit code 1.
 */
function refuseStart(error: unknown): never {
  if (error instanceof StartupError) console.error(`forja: cannot start: ${error.message}\n  fix: ${error.fix}`);
  else console.error(`forja: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  if (wantsStartupStack()) console.error(error);
  process.exit(1);
}

/** Entry point: `npm run server` (API, from the sources) or `npm start` (this file bundled, see scripts/start.ts). */
let config: ServerConfig;
let app: Awaited<ReturnType<typeof createServer>>;
/** With the schema studio on (SCHEMA_STUDIO=true), its saves swap in an app on the new model behind one socket. */
let appSwitch: AppSwitch | null = null;
try {
  // .env first (the real environment wins), then everything that reads the environment.
  loadEnvFile();
  config = loadConfig();
  // Port, data directory and database, before anything is created, seeded or printed.
  await checkStartup(config);
  app = await createServer({ config });
  const studio = loadStudioConfig();
  if (studio.enabled && studio.live === 'running') {
    appSwitch = createAppSwitch({ log: (line) => app.log.error(line) });
    appSwitch.track(app, config.shutdownGraceMs);
    await app.ready();
    appSwitch.use(app);
    installRunningApply({ serverOptions: { config }, root: studio.root, appSwitch, log: (line) => appSwitch!.current().log.info(line) });
  }
} catch (error) {
  refuseStart(error);
}

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
    (appSwitch ? appSwitch.close() : app.close()).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  });
}

try {
  if (appSwitch) {
    await appSwitch.listen(config.port, config.host);
    app.log.info({ port: config.port, host: config.host }, 'listening; schema studio saves apply live (SCHEMA_STUDIO=true)');
  } else await app.listen({ port: config.port, host: config.host });
} catch (error) {
  // Checked free before the start; taken in between by another process.
  app.log.fatal({ err: error }, 'could not start the server');
  process.exit(1);
}
