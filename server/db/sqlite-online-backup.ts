import BetterSqlite3 from 'better-sqlite3';

/**
 * Copies the SQLite database `location` into the new file `copy` with SQLite's online backup API,
 * on a connection of its own: a consistent snapshot, page by page, while the server keeps writing
 * (`npm run backup`, server/backup/create-backup.ts).
 */
export async function copySqliteSnapshot(location: string, copy: string): Promise<void> {
  const source = new BetterSqlite3(location, { fileMustExist: true });
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
}
