import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';

const USERS = entities.user.storage.table;
export const USERNAME_UNIQUE_INDEX = `${USERS}_username_unique`;

/**
 * Usernames are unique (`unique: "global"` in manifests/user.json). The entity service checks
 * before it inserts, but two requests can both pass the check; a UNIQUE index makes the database
 * refuse the second one, and the service answers it with the same 409 (inputErrors username).
 * A database that already holds duplicates keeps working: the index is skipped, with an error in
 * the log naming them, until an administrator renames them (the next start creates it).
 */
export async function ensureUniqueUsernames(database: Database, log: Pick<FastifyBaseLogger, 'error' | 'warn'>): Promise<void> {
  const { kysely } = database;
  const duplicates = await database.all(
    kysely.selectFrom(USERS).select(['username', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('username').having((eb) => eb.fn.countAll(), '>', 1).limit(20).compile(),
  );
  if (duplicates.length > 0) {
    log.error({ usernames: duplicates.map((d) => d.username) }, 'duplicate usernames: rename them; the unique index on users.username is not created until then');
    return;
  }
  try {
    await kysely.schema.createIndex(USERNAME_UNIQUE_INDEX).ifNotExists().unique().on(USERS).column('username').execute();
  } catch (error) {
    // Another instance creating it at the same moment (PostgreSQL) is not a reason to stop.
    log.warn({ err: error }, 'could not create the unique index on users.username');
  }
}
