import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';

export const TOKEN_VERSIONS_TABLE = 'user_token_versions';

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Revocation of access tokens on a password change, reset or recovery. Each user has a token
 * version (0 until the first change), carried by every token as the `ver` claim; a change
 * increments it, so every token issued before stops working on the next request (the caller
 * directory reads the version with the user). The session that changed its own password may be
 * kept (`keepToken`): its hash is stored and that one token stays valid, every other one ends.
 * A private table of identity, like the recovery codes: nothing of it belongs in the console.
 */
export class TokenVersions {
  constructor(private readonly database: Database) {}

  async current(userId: string): Promise<number> {
    const row = await this.database.first(
      this.database.kysely.selectFrom(TOKEN_VERSIONS_TABLE).select('version').where('userId', '=', userId).compile(),
    );
    return row ? Number(row.version) : 0;
  }

  /** Ends every token of the user issued so far, except `keepToken` when given. */
  async revoke(userId: string, keepToken: string | null = null): Promise<void> {
    const keepTokenHash = keepToken ? tokenHash(keepToken) : null;
    // An upsert, so two changes racing both count (no read-modify-write). The user row is
    // touched in the same transaction: only entity tables notify other instances (PostgreSQL
    // change feed), whose caller caches must drop the old version at once.
    await this.database.runAll([
      this.database.kysely
        .insertInto(TOKEN_VERSIONS_TABLE)
        .values({ userId, version: 1, keepTokenHash })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ version: sql`${sql.ref(`${TOKEN_VERSIONS_TABLE}.version`)} + 1`, keepTokenHash }))
        .compile(),
      this.database.kysely.updateTable(entities.user.storage.table).set({ updatedAt: new Date().toISOString() }).where('_id', '=', userId).compile(),
    ]);
  }
}
