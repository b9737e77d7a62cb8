import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7: 48-bit millisecond timestamp then random bits. Time-ordered ids keep
 * inserts at the end of the primary-key index (fast, little page splitting) and make `_id`
 * order follow creation order; 74 random bits keep them unguessable enough for row ids.
 * Written by hand because Node 20 has no randomUUIDv7 (Node 24 does).
 */
export function newRecordId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
