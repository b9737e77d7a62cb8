import type { Database } from '../db/database.ts';

/** Name of the database-wide lock (PostgreSQL advisory lock key, via `hashtext`). */
export const IDENTITY_WRITE_LOCK = 'forja:identity-writes';

/**
 * Serialises every write of users, roles and tenants (create, update, delete), so the checks
 * the access rules make before a write (last administrator, role/tenant in use, role
 * assignment) and the write itself are one step: two administrators deleting each other, or a
 * role deleted while a user is created with it, can no longer both pass their checks.
 *
 * In this process: a promise chain (one write at a time). Across processes on PostgreSQL:
 * `Database.exclusive`, a session advisory lock held on a connection of its own around the
 * write's transaction (Database.transaction), so it is released only after the COMMIT: the next
 * writer's checks see this write. SQLite is one process, so the in-process lock is all it needs.
 * Identity writes are rare; nothing else waits on this lock. A hook running under it must not
 * write users, roles or tenants through the service again (it would wait for itself).
 */
export class IdentityWriteLock {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly database: Database) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => this.database.exclusive(IDENTITY_WRITE_LOCK, work));
    // The next write waits for this one, whatever its outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
