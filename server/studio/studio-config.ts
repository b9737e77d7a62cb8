import path from 'node:path';

/**
 * Whether the schema studio exists on this server, and the project it edits.
 *
 * | Variable           | Default                  | Meaning                                              |
 * |--------------------|--------------------------|------------------------------------------------------|
 * | SCHEMA_STUDIO      | on under `npm run dev`, else off | `true` turns the studio on, `false` off       |
 * | SCHEMA_STUDIO_ROOT | the working directory    | the project whose manifests/ and locales/ it writes  |
 *
 * Off by default outside development because the studio writes project files (README.md "Schema
 * studio"): when it is off, its routes are not registered at all (404), not merely forbidden.
 * `npm run dev` sets FORJA_DEV=true (scripts/dev-server.ts).
 */
export interface StudioConfig {
  enabled: boolean;
  /** Project root: manifests/ and locales/ are read and written under it, nothing else. */
  root: string;
  /**
   * 'dev': a save is applied by the dev server's watcher (reload); 'running': the built server
   * (`npm start`) applies it itself (server/studio/running-apply.ts). A server created without
   * either (tests' createServer) says the next start applies it.
   */
  live: 'dev' | 'running';
}

export function loadStudioConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): StudioConfig {
  const raw = env.SCHEMA_STUDIO?.trim().toLowerCase() ?? '';
  if (raw !== '' && raw !== 'true' && raw !== 'false') {
    throw new Error(`SCHEMA_STUDIO must be true or false; got ${JSON.stringify(env.SCHEMA_STUDIO)}`);
  }
  const dev = env.FORJA_DEV?.trim().toLowerCase() === 'true';
  return {
    enabled: raw === '' ? dev : raw === 'true',
    root: path.resolve(cwd, env.SCHEMA_STUDIO_ROOT?.trim() || '.'),
    live: dev ? 'dev' : 'running',
  };
}
