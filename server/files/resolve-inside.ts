import fs from 'node:fs';
import path from 'node:path';
import { isPrivateFolder } from './private-folders.ts';

// Bounded: a longer name is past the file system's limit (ENAMETOOLONG was a 500, found by tests/fuzz/openapi-contract.test.ts).
export const DIR_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A private folder of DATA_DIR (server/files/private-folders.ts): never served, parsed by path or uploaded into. */
export function isReservedDir(name: string): boolean {
  return isPrivateFolder(name);
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
