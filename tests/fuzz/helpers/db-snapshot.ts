import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Row count and content hash of every table of a Forja SQLite database, read-only. */
export type DbSnapshot = Record<string, { rows: number; hash: string }>;

export interface SnapshotReader {
  snapshot(): DbSnapshot;
  close(): void;
}

export function openSnapshotReader(dataDir: string): SnapshotReader {
  const db = new Database(path.join(dataDir, 'forja.db'), { readonly: true, fileMustExist: true });
  const tables = () =>
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map(
      (row) => row.name,
    );
  return {
    snapshot() {
      const result: DbSnapshot = {};
      for (const table of tables()) {
        const hash = createHash('sha256');
        let rows = 0;
        for (const row of db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`).raw().iterate() as Iterable<unknown[]>) {
          rows += 1;
          for (const cell of row) hash.update(Buffer.isBuffer(cell) ? cell.toString('hex') : String(cell)).update('\u0000');
          hash.update('\u0001');
        }
        result[table] = { rows, hash: hash.digest('hex').slice(0, 16) };
      }
      return result;
    },
    close: () => db.close(),
  };
}

/** Tables whose count or content differ between two snapshots. */
export function snapshotDiff(before: DbSnapshot, after: DbSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name]?.hash !== after[name]?.hash || before[name]?.rows !== after[name]?.rows);
}
