import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';

const TABLE = 'password_recovery_codes';
export const RECOVERY_CODE_LIFETIME_MS = 15 * 60 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Single-use password-recovery codes, stored as SHA-256 hashes (the code has 192 random bits,
 * so a fast hash suffices; a database leak does not hand out working codes). Not a manifest
 * entity: nothing about it belongs in the console, so it is a private table of identity.
 */
export class RecoveryCodes {
  constructor(private readonly database: Database) {}

  async migrate(): Promise<void> {
    await this.database.kysely.schema
      .createTable(TABLE)
      .ifNotExists()
      .addColumn('codeHash', 'text', (c) => c.primaryKey())
      .addColumn('userId', 'text', (c) => c.notNull())
      .addColumn('expiresAt', 'text', (c) => c.notNull())
      .execute();
  }

  async issue(userId: string, now = Date.now()): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    await this.database.run(this.database.kysely.deleteFrom(TABLE).where('expiresAt', '<', new Date(now).toISOString()).compile());
    await this.database.run(
      this.database.kysely
        .insertInto(TABLE)
        .values({ codeHash: sha256(code), userId, expiresAt: new Date(now + RECOVERY_CODE_LIFETIME_MS).toISOString() })
        .compile(),
    );
    return code;
  }

  /** The user of a valid code, consuming it (and every other code of that user); null otherwise. */
  async consume(code: string, now = Date.now()): Promise<string | null> {
    const row = await this.database.first(this.database.kysely.selectFrom(TABLE).selectAll().where('codeHash', '=', sha256(code)).compile());
    if (!row) return null;
    const userId = String(row.userId);
    // Delete first: if two requests race with the same code, only the one that deletes it wins.
    const deleted = await this.database.run(this.database.kysely.deleteFrom(TABLE).where('codeHash', '=', sha256(code)).compile());
    if (deleted === 0 || String(row.expiresAt) < new Date(now).toISOString()) return null;
    await this.database.run(this.database.kysely.deleteFrom(TABLE).where('userId', '=', userId).compile());
    return userId;
  }
}
