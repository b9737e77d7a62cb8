import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';

/**
 * A Forja backup: one gzip file of JSON lines. The first line is the header (format name,
 * version, engine, time); then the database (SQLite: the file made by SQLite's online backup, in
 * base64 chunks; PostgreSQL: each table's columns and its rows in batches) and every file of
 * DATA_DIR (uploads, secrets, exports), in chunks; the last line holds the number of lines before
 * it and the SHA-256 of their bytes. A restore reads the whole file once to check all of this
 * before it writes anything (restore-backup.ts).
 */
export const BACKUP_FORMAT = 'forja-backup';
export const BACKUP_VERSION = 1;
/** Bytes per chunk line of a file (base64 makes a line 4/3 of it). */
export const CHUNK_BYTES = 512 * 1024;

export interface BackupHeader {
  type: 'header';
  format: typeof BACKUP_FORMAT;
  version: number;
  engine: 'sqlite' | 'postgres';
  createdAt: string;
}

export type BackupEntry =
  | BackupHeader
  /** A chunk of the SQLite database file, in order. */
  | { type: 'sqlite'; data: string }
  | { type: 'table'; name: string; columns: string[] }
  | { type: 'rows'; table: string; rows: unknown[][] }
  /** A chunk of a DATA_DIR file (path relative, '/'-separated); a file's first chunk has offset 0. */
  | { type: 'file'; path: string; mode: number; offset: number; data: string }
  | { type: 'end'; lines: number; sha256: string };

/** Writes entries as gzip'd JSON lines, keeping the count and checksum for the end line. */
export class BackupWriter {
  readonly #hash = createHash('sha256');
  readonly #gzip = zlib.createGzip();
  readonly #out: fs.WriteStream;
  readonly #done: Promise<void>;
  #lines = 0;

  constructor(file: string) {
    this.#out = fs.createWriteStream(file, { mode: 0o600 });
    this.#gzip.pipe(this.#out);
    this.#done = new Promise((resolve, reject) => {
      this.#out.on('finish', resolve);
      this.#out.on('error', reject);
      this.#gzip.on('error', reject);
    });
  }

  async write(entry: BackupEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    this.#hash.update(line);
    this.#lines++;
    if (!this.#gzip.write(line)) await new Promise((resolve) => this.#gzip.once('drain', resolve));
  }

  async end(): Promise<{ lines: number; sha256: string }> {
    const end = { type: 'end' as const, lines: this.#lines, sha256: this.#hash.digest('hex') };
    this.#gzip.end(`${JSON.stringify(end)}\n`);
    await this.#done;
    return end;
  }
}

export class BackupRefused extends Error {
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'BackupRefused';
  }
}

/** Reads a backup's entries in order; with `verify`, checks header and checksum as it goes and throws BackupRefused at the first problem. */
export async function* readBackup(file: string): AsyncGenerator<BackupEntry> {
  if (!fs.existsSync(file)) throw new BackupRefused(file, 'no such file');
  const hash = createHash('sha256');
  let lines = 0;
  let ended = false;
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      if (ended) throw new BackupRefused(file, 'data after the end line: the file was altered');
      let entry: BackupEntry;
      try {
        entry = JSON.parse(line) as BackupEntry;
      } catch {
        throw new BackupRefused(file, `line ${lines + 1} is not JSON: the file is corrupt`);
      }
      if (lines === 0 && (entry.type !== 'header' || entry.format !== BACKUP_FORMAT)) throw new BackupRefused(file, 'not a Forja backup (made by npm run backup)');
      if (entry.type === 'header' && entry.version !== BACKUP_VERSION) throw new BackupRefused(file, `backup format version ${entry.version}; this Forja reads version ${BACKUP_VERSION}`);
      if (entry.type === 'end') {
        if (entry.lines !== lines || entry.sha256 !== hash.digest('hex')) throw new BackupRefused(file, 'checksum mismatch: the file is corrupt or was altered');
        ended = true;
      } else {
        hash.update(`${line}\n`);
        lines++;
      }
      yield entry;
    }
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupRefused(file, code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? 'not a gzip file, or a damaged one' : `cannot be read (${(error as Error).message})`);
  } finally {
    reader.close();
    input.destroy();
  }
  if (lines === 0) throw new BackupRefused(file, 'empty: not a Forja backup');
  if (!ended) throw new BackupRefused(file, 'truncated: its end line is missing (an interrupted copy?)');
}
