import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateFolder } from '../files/private-folders.ts';

/**
 * A server secret (JWT signing key, API-key pepper): from the environment when given, otherwise
 * generated once and kept in DATA_DIR/secrets/<name> (mode 0600) so restarts keep sessions valid.
 * Never a constant in code.
 */
export function readOrCreateSecret(dataDir: string, name: string, fromEnv: string | undefined): { value: string; source: 'env' | 'file' | 'generated' } {
  if (fromEnv && fromEnv.trim()) {
    if (fromEnv.trim().length < 32) throw new Error(`${name} from the environment must be at least 32 characters long`);
    return { value: fromEnv.trim(), source: 'env' };
  }
  const dir = privateFolder(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length >= 32) return { value, source: 'file' };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(48).toString('base64url');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { value, source: 'generated' };
}
