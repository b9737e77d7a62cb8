import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { sql, type CompiledQuery } from 'kysely';
import type { Database } from '../db/database.ts';

/**
 * What every single-use secret code shares (password recovery links, e-mail verification codes):
 * made from the system's randomness, stored only as a hash, compared in constant time, valid
 * until an expiry, consumed by a guarded write so that of two racing requests only one wins, and
 * (for a code short enough to guess) counted attempts in the database. The tables stay each
 * feature's own; this module is how they treat the code.
 */

/** A code of `digits` decimal digits, for a person to type (an e-mail verification code). */
export function randomDigits(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** A code of `bytes` random bytes, base64url, for a link (192 bits for a recovery link). */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Where a short code is bound: an HMAC under the server's secret over the code's scope (the
 * conversation it was sent for), so a leaked table cannot be brute-forced offline and a code is
 * worth nothing outside its scope.
 */
export interface CodeKey {
  secret: string;
  scope: string;
}

/**
 * How a code is stored: never in clear. A long random code needs only SHA-256 (guessing it is
 * hopeless, so a fast hash suffices); a short one is keyed (CodeKey).
 */
export function hashCode(code: string, key?: CodeKey): string {
  if (!key) return createHash('sha256').update(code).digest('hex');
  return createHmac('sha256', key.secret).update(`${key.scope}\n${code}`).digest('hex');
}

/** Whether `code` is the one stored as `storedHash`, in constant time (no timing hint of how close a guess was). */
export function matchesHash(storedHash: string, code: string, key?: CodeKey): boolean {
  const expected = Buffer.from(storedHash);
  const given = Buffer.from(hashCode(code, key));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The stored expiry of a code issued at `now` (ISO-8601, compared as text and as a date). */
export function expiryOf(now: number, lifetimeMs: number): string {
  return new Date(now + lifetimeMs).toISOString();
}

export function hasExpired(expiresAt: unknown, now: number): boolean {
  return Date.parse(String(expiresAt)) < now;
}

/**
 * Runs a guarded write (a delete or update that matches only while the code is still unused, or
 * under its attempt limit) and tells whether it took: the database decides which of two racing
 * requests wins, never a read made before.
 */
export async function tookEffect(database: Database, query: CompiledQuery): Promise<boolean> {
  return (await database.run(query)) > 0;
}

/**
 * Counts one wrong attempt on the code's row, only while under `max`; false when the limit had
 * already been reached. Counted in the database, so parallel guesses cannot share one attempt.
 */
export function countWrongAttempt(database: Database, row: { table: string; column: string; value: string }, max: number): Promise<boolean> {
  return tookEffect(
    database,
    database.kysely
      .updateTable(row.table)
      .set({ attempts: sql`attempts + 1` })
      .where(row.column, '=', row.value)
      .where('attempts', '<', max)
      .compile(),
  );
}
