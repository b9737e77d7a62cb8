import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Row count and content hash of every table of a Forja SQLite database, read-only. */
export type DbSnapshot = Record<string, { rows: number; hash: string }>;

export interface SnapshotReader {
  snapshot(): DbSnapshot;
  /**
   * Tables whose full hash now differs from the last snapshot although PRAGMA data_version did not
   * move in between (empty when it moved): checks the shortcut snapshot() takes.
   */
  unnoticedChanges(): string[];
  close(): void;
}

/**
 * Tables that background work writes at any moment, read as what a request could add to them.
 * forja_jobs: workers move jobs through their states, beat their heartbeat and report progress,
 * and the queue enqueues its scheduled jobs (no user) on its own clock; a rejected request must
 * still not have queued a job of anyone's, so the user jobs that exist are compared.
 */
const AS_REQUESTS_SEE_THEM: Record<string, string> = {
  forja_jobs: 'SELECT id, kind, user_id, tenant_id, payload FROM forja_jobs WHERE user_id IS NOT NULL ORDER BY id',
};

export function openSnapshotReader(dataDir: string): SnapshotReader {
  const db = new Database(path.join(dataDir, 'forja.db'), { readonly: true, fileMustExist: true });
  const tables = () =>
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map(
      (row) => row.name,
    );
  // PRAGMA data_version moves whenever another connection (the server) commits: while it stands
  // still nothing can have changed, and the last snapshot is still the truth. Hashing every table
  // after every case of the fuzz cost more than most cases (O(rows) each, the tables growing).
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let last: { version: unknown; snapshot: DbSnapshot } | null = null;
  return {
    snapshot() {
      const version = dataVersion.get();
      if (last && last.version === version) return last.snapshot;
      last = { version, snapshot: hashTables() };
      return last.snapshot;
    },
    unnoticedChanges() {
      if (!last || dataVersion.get() !== last.version) return [];
      const full = hashTables();
      return dataVersion.get() === last.version ? snapshotDiff(last.snapshot, full) : [];
    },
    close: () => db.close(),
  };

  function hashTables(): DbSnapshot {
    const result: DbSnapshot = {};
    for (const table of tables()) {
      const hash = createHash('sha256');
      let rows = 0;
      const select = AS_REQUESTS_SEE_THEM[table] ?? `SELECT * FROM "${table.replaceAll('"', '""')}"`;
      for (const row of db.prepare(select).raw().iterate() as Iterable<unknown[]>) {
        rows += 1;
        for (const cell of row) hash.update(Buffer.isBuffer(cell) ? cell.toString('hex') : String(cell)).update('\u0000');
        hash.update('\u0001');
      }
      result[table] = { rows, hash: hash.digest('hex').slice(0, 16) };
    }
    return result;
  }
}

/** Tables whose count or content differ between two snapshots. */
export function snapshotDiff(before: DbSnapshot, after: DbSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name]?.hash !== after[name]?.hash || before[name]?.rows !== after[name]?.rows);
}
