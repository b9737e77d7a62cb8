import fs from 'node:fs';
import path from 'node:path';

// Bounded: a longer name is past the file system's limit (ENAMETOOLONG was a 500, found by tests/fuzz/openapi-contract.test.ts).
export const DIR_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Folders of DATA_DIR that are the server's own, never served by GET /files/* nor written by
 * uploads: `secrets` holds the generated JWT signing key and API-key pepper (secret-store.ts);
 * serving it let anyone download the key and forge an administrator's token (found by tests/fuzz).
 * `exports` holds other users' export files: served only through signed links
 * (export-download-route.ts), never by path, never written by uploads nor read as knowledge files.
 * `job-uploads` holds import files waiting for their job (server/files/file-jobs.ts): another
 * user's pending import, never served or parsed by path.
 */
export const RESERVED_DIRS = new Set(['secrets', 'exports', 'job-uploads']);

export function isReservedDir(name: string): boolean {
  return RESERVED_DIRS.has(name.toLowerCase());
}

/**
 * Resolves a URL path (already percent-decoded once by the router) to a file under `root`, or
 * null when it could escape it or reach something not meant to be served. Checks are layered:
 * lexical (no NUL, backslash, '..', absolute paths, leftover encodings, dotfiles), then the
 * resolved path, then the real path (a symlink cannot lead out either).
 */
export async function resolveInside(root: string, requested: string): Promise<string | null> {
  if (!requested || requested.includes('\0') || requested.includes('\\') || /%[0-9a-f]{2}/i.test(requested)) return null;
  if (requested.startsWith('/') || path.isAbsolute(requested)) return null;
  const segments = requested.split('/');
  // Served files always live in a named folder (uploads, exports): the database file and its
  // WAL at the root of DATA_DIR are never reachable.
  if (segments.length < 2 || !DIR_NAME.test(segments[0]) || isReservedDir(segments[0])) return null;
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.'))) return null;
  const rootReal = await fs.promises.realpath(root).catch(() => null);
  if (!rootReal) return null;
  const resolved = path.resolve(rootReal, ...segments);
  if (!resolved.startsWith(rootReal + path.sep)) return null;
  const real = await fs.promises.realpath(resolved).catch(() => null);
  if (!real || !real.startsWith(rootReal + path.sep)) return null;
  // The same rules on the real path: a symlink (uploads/x -> ../secrets/jwt-secret, or a folder
  // linked to secrets/) must not reach a reserved folder or the files at the root of DATA_DIR.
  const realSegments = path.relative(rootReal, real).split(path.sep);
  if (realSegments.length < 2 || isReservedDir(realSegments[0])) return null;
  const stat = await fs.promises.stat(real).catch(() => null);
  return stat?.isFile() ? real : null;
}
