import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseDatabaseUrl } from '../db/database.ts';
import { loadPostgres, type DumpedColumn } from '../db/postgres-dump.ts';
import { BackupRefused, readBackup, type BackupHeader } from './backup-format.ts';
import { listFiles, sqliteFiles } from './create-backup.ts';

export interface RestoreOptions {
  dataDir: string;
  databaseUrl: string | null;
  file: string;
  /** Overwrite a DATA_DIR with files or a database with tables (default: refused). */
  force?: boolean;
}

export interface RestoreSummary {
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL: rows per table; SQLite: the database file's size. */
  database: Record<string, number>;
  files: number;
}

/** A name as it may appear in the PostgreSQL statements of a restore. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** "<column> <type>" as format_type() writes it: character varying(255), timestamp with time zone, text[]. */
const COLUMN = /^([A-Za-z_][A-Za-z0-9_]{0,62}) ([a-z][a-z0-9 ,()[\]_"]{0,80})$/;

/**
 * `npm run restore -- <file> [--force]`: the backup's database and files into DATA_DIR and the
 * database DATABASE_URL names (stop the server first). The whole file is read and checked first
 * (format, version, checksum, engine, file paths): a corrupt, truncated or foreign file is refused
 * before anything is written. A DATA_DIR holding files or a database holding tables is refused
 * unless `force`.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const header = await checkBackup(options.file);
  const { scheme, location } = parseDatabaseUrl(options);
  if (scheme !== header.engine) {
    throw new BackupRefused(options.file, `holds a ${header.engine} database but DATABASE_URL is ${scheme}: restore into the same engine, then use npm run db:copy`);
  }
  const existing = fs.existsSync(options.dataDir) ? listFiles(options.dataDir) : [];
  if (!options.force && existing.length > 0) {
    throw new Error(`DATA_DIR ${options.dataDir} is not empty (${existing.length} files); restore into an empty one, or add --force to overwrite`);
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const database = header.engine === 'sqlite' ? await restoreSqlite(options, location) : await restorePostgres(options, location);
  const files = await restoreFiles(options);
  return { engine: header.engine, database, files };
}

/** Reads the whole backup once: its header when it is sound, else BackupRefused (nothing written). */
export async function checkBackup(file: string): Promise<BackupHeader> {
  let header: BackupHeader | null = null;
  for await (const entry of readBackup(file)) {
    if (entry.type === 'header') header = entry;
    else if (entry.type === 'file' && !safeRelative(entry.path)) throw new BackupRefused(file, `file path ${JSON.stringify(entry.path)} leaves DATA_DIR: refused`);
    else if (entry.type === 'table' && (!TABLE_NAME.test(entry.name) || !entry.columns.every((c) => COLUMN.test(c)))) {
      throw new BackupRefused(file, `table ${JSON.stringify(entry.name)} has a name or column this restore does not accept`);
    } else if ((entry.type === 'sqlite' || entry.type === 'rows') && header && (entry.type === 'sqlite') !== (header.engine === 'sqlite')) {
      throw new BackupRefused(file, `${entry.type} data in a ${header.engine} backup`);
    }
  }
  return header!;
}

function safeRelative(relative: string): boolean {
  if (typeof relative !== 'string' || relative === '' || relative.includes('\0') || relative.includes('\\') || path.posix.isAbsolute(relative)) return false;
  return relative.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

async function restoreSqlite(options: RestoreOptions, location: string): Promise<Record<string, number>> {
  const present = sqliteFiles(location).filter((file) => fs.existsSync(file));
  if (present.length > 0 && !options.force) throw new Error(`The database ${location} exists; restore into an empty DATA_DIR, or add --force to overwrite`);
  fs.mkdirSync(path.dirname(location), { recursive: true });
  const partial = `${location}.restoring`;
  const out = fs.openSync(partial, 'w', 0o600);
  let bytes = 0;
  try {
    for await (const entry of readBackup(options.file)) {
      if (entry.type !== 'sqlite') continue;
      const data = Buffer.from(entry.data, 'base64');
      fs.writeSync(out, data);
      bytes += data.length;
    }
    fs.fsyncSync(out);
  } finally {
    fs.closeSync(out);
  }
  for (const file of present) fs.rmSync(file, { force: true });
  fs.renameSync(partial, location);
  return { bytes };
}

async function restoreFiles(options: RestoreOptions): Promise<number> {
  let files = 0;
  let current: { path: string; fd: number } | null = null;
  const close = () => {
    if (current) fs.closeSync(current.fd);
    current = null;
  };
  try {
    for await (const entry of readBackup(options.file)) {
      if (entry.type !== 'file') continue;
      if (entry.offset === 0) {
        close();
        const target = path.join(options.dataDir, ...entry.path.split('/'));
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        current = { path: entry.path, fd: fs.openSync(target, 'w', entry.mode & 0o777) };
        fs.fchmodSync(current.fd, entry.mode & 0o777);
        files++;
      }
      if (!current || current.path !== entry.path) throw new BackupRefused(options.file, `file ${entry.path} has a chunk out of order`);
      fs.writeSync(current.fd, Buffer.from(entry.data, 'base64'));
    }
  } finally {
    close();
  }
  return files;
}

async function restorePostgres(options: RestoreOptions, url: string): Promise<Record<string, number>> {
  const tables = new Map<string, DumpedColumn[]>();
  for await (const entry of readBackup(options.file)) {
    if (entry.type === 'table') tables.set(entry.name, entry.columns.map((c) => ({ name: COLUMN.exec(c)![1], type: COLUMN.exec(c)![2] })));
  }
  return loadPostgres(url, {
    tables,
    force: options.force === true,
    // The tables, indexes, triggers and generated columns exactly as this version's server makes them.
    createSchema: () => createSchema(url),
    rows: async function* () {
      for await (const entry of readBackup(options.file)) if (entry.type === 'rows') yield entry;
    },
  });
}

/** Runs this version's server once on the database (in a scratch DATA_DIR) so every table it makes exists; its seed is then truncated. */
async function createSchema(url: string): Promise<void> {
  const { createForjaServer } = await import('../http/create-server.ts');
  const { loadConfig } = await import('../config.ts');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-restore-'));
  try {
    const secret = () => randomBytes(32).toString('hex');
    const forja = await createForjaServer({
      logger: false,
      env: {},
      config: { ...loadConfig({ DATA_DIR: scratch, LOG_LEVEL: 'silent' }), databaseUrl: url, port: 0, distDir: path.join(scratch, 'no-dist') },
      identity: { adminUsername: 'admin', adminPassword: `Restore-${secret().slice(0, 24)}`, jwtSecret: secret(), apiKeySecret: secret() },
    });
    // Every table is made at start: the entities' and Forja's own (server/db/owned-tables.ts).
    await forja.app.close();
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
