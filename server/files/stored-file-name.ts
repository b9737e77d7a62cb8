import path from 'node:path';
import { randomBytes } from 'node:crypto';

const MAX_NAME_LENGTH = 200;

/** The original name made safe to echo back: no directories, no control or odd characters. */
export function sanitiseFilename(original: string | undefined): string {
  const base = path.basename(String(original ?? '').replace(/\\/g, '/'));
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(-MAX_NAME_LENGTH);
  return cleaned || 'file';
}

/**
 * The name a file is stored under: 128 random bits (unguessable, never colliding, never the
 * client's text) plus the original extension reduced to [a-z0-9] so it still opens right.
 */
export function storedFileName(original: string | undefined): string {
  const extension = path.extname(sanitiseFilename(original)).slice(1).toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 10);
  const random = randomBytes(16).toString('hex');
  return extension ? `${random}.${extension}` : random;
}
