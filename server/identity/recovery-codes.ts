import type { Database } from '../db/database.ts';
import { expiryOf, hasExpired, hashCode, randomToken, tookEffect } from './single-use-code.ts';

const TABLE = 'password_recovery_codes';
export const RECOVERY_CODE_LIFETIME_MS = 15 * 60 * 1000;

/**
 * Single-use password-recovery codes, stored as SHA-256 hashes (the code has 192 random bits,
 * so a fast hash suffices; a database leak does not hand out working codes; see
 * single-use-code.ts, shared with the chat's e-mail codes). Looked up by that hash, so no
 * comparison of secrets happens in code. Not a manifest
 * entity: nothing about it belongs in the console, so it is a private table of identity.
 */
export class RecoveryCodes {
  constructor(private readonly database: Database) {}

  async issue(userId: string, now = Date.now()): Promise<string> {
    const code = randomToken(24);
    await this.database.run(this.database.kysely.deleteFrom(TABLE).where('expiresAt', '<', new Date(now).toISOString()).compile());
    await this.database.run(
      this.database.kysely
        .insertInto(TABLE)
        .values({ codeHash: hashCode(code), userId, expiresAt: expiryOf(now, RECOVERY_CODE_LIFETIME_MS) })
        .compile(),
    );
    return code;
  }

  /** The user of a valid code, consuming it (and every other code of that user); null otherwise. */
  async consume(code: string, now = Date.now()): Promise<string | null> {
    const codeHash = hashCode(code);
    const row = await this.database.first(this.database.kysely.selectFrom(TABLE).selectAll().where('codeHash', '=', codeHash).compile());
    if (!row) return null;
    const userId = String(row.userId);
    // Delete first: if two requests race with the same code, only the one that deletes it wins.
    const deleted = await tookEffect(this.database, this.database.kysely.deleteFrom(TABLE).where('codeHash', '=', codeHash).compile());
    if (!deleted || hasExpired(row.expiresAt, now)) return null;
    await this.database.run(this.database.kysely.deleteFrom(TABLE).where('userId', '=', userId).compile());
    return userId;
  }
}
