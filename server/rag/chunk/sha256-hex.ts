import { createHash } from 'node:crypto';

/** The hash that keys a chunk: sha256 over the UTF-8 bytes of its content, lower-case hex. */
export function sha256Hex(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}
