import fs from 'node:fs';
import path from 'node:path';

/**
 * Loads `.env` from the working directory into process.env, when there is one (see .env.example).
 * A variable already set in the real environment wins over the file (Node's own parser,
 * process.loadEnvFile, never overwrites). Called by server/main.ts before anything reads the
 * environment (no server module reads process.env when it is imported). Returns the file loaded.
 */
export function loadEnvFile(cwd: string = process.cwd()): string | null {
  const file = path.join(cwd, '.env');
  if (!fs.existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
