import { randomFillSync } from 'node:crypto';

let lastTime = 0;
let sequence = 0;
// One crypto call per 256 ids instead of one per id: randomBytes(16) per call dominated bulk
// inserts (imports) in profiles.
const POOL = Buffer.alloc(16 * 256);
let poolOffset = POOL.length;

function random16(): Buffer {
  if (poolOffset >= POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = Buffer.from(POOL.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * A UUID version 7: 48-bit millisecond timestamp, a 12-bit counter, then 62 random bits.
 * Time-ordered ids keep inserts at the end of the primary-key index and make `_id` order follow
 * creation order; the counter (RFC 9562 §6.2 method 1) keeps that true for ids made in the same
 * millisecond (imports make thousands). Written by hand because Node 20 has no randomUUIDv7.
 */
export function newRecordId(now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // Counter exhausted within one millisecond: borrow the next one (clock catches up).
    lastTime += 1;
    sequence = 0;
  }
  const bytes = random16();
  bytes.writeUIntBE(lastTime, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
