import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDatabaseUrl } from '../db/database.ts';
import { dumpPostgres } from '../db/postgres-dump.ts';
import { copySqliteSnapshot } from '../db/sqlite-online-backup.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupWriter, CHUNK_BYTES } from './backup-format.ts';

export interface BackupOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** The backup file to write (refused if it exists). */
  file: string;
}

export interface BackupSummary {
  file: string;
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL: rows per table; SQLite: the database file's size in bytes. */
  database: Record<string, number>;
  files: number;
  sha256: string;
}

/**
 * `npm run backup -- <file>`: the database and DATA_DIR's files into one file (backup-format.ts),
 * while the server keeps running. SQLite: SQLite's online backup API copies a consistent snapshot
 * page by page. PostgreSQL: every table of the connection's schema read in one REPEATABLE READ,
 * READ ONLY transaction (one snapshot for all of them), as text, so no pg_dump is needed. The
 * files are copied after the database: an upload finished meanwhile is in the backup, a
 * reference to it may not be (never the other way round for uploads, which are written first).
 */
export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const { scheme, location } = parseDatabaseUrl(options);
  if (scheme !== 'sqlite' && scheme !== 'postgres') throw new Error(`DATABASE_URL scheme "${scheme}" cannot be backed up (known: sqlite, postgres)`);
  if (fs.existsSync(options.file)) throw new Error(`${options.file} exists already; choose a new file name (backups are never overwritten)`);
  if (!fs.existsSync(options.dataDir)) throw new Error(`DATA_DIR ${options.dataDir} does not exist: nothing to back up (is DATA_DIR right?)`);
  fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
  const writer = new BackupWriter(options.file);
  const engine = scheme;
  const database: Record<string, number> = {};
  let files = 0;
  try {
    await writer.write({ type: 'header', format: BACKUP_FORMAT, version: BACKUP_VERSION, engine, createdAt: new Date().toISOString() });
    if (engine === 'sqlite') database.bytes = await writeSqlite(writer, location);
    else Object.assign(database, await writePostgres(writer, location));
    const skip = new Set([path.resolve(options.file), ...(engine === 'sqlite' ? sqliteFiles(location) : [])]);
    for (const relative of listFiles(options.dataDir)) {
      const absolute = path.join(options.dataDir, relative);
      if (skip.has(absolute)) continue;
      await writeFile(writer, absolute, relative.split(path.sep).join('/'));
      files++;
    }
    const { sha256 } = await writer.end();
    return { file: options.file, engine, database, files, sha256 };
  } catch (error) {
    await writer.end().catch(() => {});
    fs.rmSync(options.file, { force: true });
    throw error;
  }
}

export function sqliteFiles(location: string): string[] {
  return ['', '-wal', '-shm', '-journal'].map((suffix) => path.resolve(location + suffix));
}

async function writeSqlite(writer: BackupWriter, location: string): Promise<number> {
  if (!fs.existsSync(location)) throw new Error(`The SQLite database ${location} does not exist (is DATA_DIR or DATABASE_URL right?)`);
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'forja-backup-')), 'forja.db');
  try {
    await copySqliteSnapshot(location, copy);
    const size = fs.statSync(copy).size;
    for await (const chunk of fs.createReadStream(copy, { highWaterMark: CHUNK_BYTES })) {
      await writer.write({ type: 'sqlite', data: (chunk as Buffer).toString('base64') });
    }
    return size;
  } finally {
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  }
}

async function writePostgres(writer: BackupWriter, url: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for await (const part of dumpPostgres(url)) {
    if (part.type === 'table') {
      await writer.write({ type: 'table', name: part.name, columns: part.columns.map((c) => `${c.name} ${c.type}`) });
      counts[part.name] = 0;
    } else {
      await writer.write({ type: 'rows', table: part.table, rows: part.rows });
      counts[part.table] += part.rows.length;
    }
  }
  return counts;
}

async function writeFile(writer: BackupWriter, absolute: string, relative: string): Promise<void> {
  const mode = fs.statSync(absolute).mode & 0o777;
  let offset = 0;
  for await (const chunk of fs.createReadStream(absolute, { highWaterMark: CHUNK_BYTES })) {
    await writer.write({ type: 'file', path: relative, mode, offset, data: (chunk as Buffer).toString('base64') });
    offset += (chunk as Buffer).length;
  }
  if (offset === 0) await writer.write({ type: 'file', path: relative, mode, offset: 0, data: '' });
}

/** Every regular file under dir (relative paths), symbolic links left out. */
export function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
