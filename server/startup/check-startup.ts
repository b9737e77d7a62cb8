import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import { parseDatabaseUrl } from '../db/database.ts';
import { probePostgres } from '../db/postgres-probe.ts';
import { StartupError } from './startup-error.ts';

/** How long the PostgreSQL check waits for a connection before it gives up. */
const DATABASE_CHECK_TIMEOUT_MS = 10_000;

/**
 * What must hold before the server creates anything: the port can be bound, the data directory
 * is writable and the database answers. Run by server/main.ts before createServer, which creates
 * the data directory, the database and the administrator and prints the sign-in line: a start
 * that cannot succeed stops here, with one StartupError naming the variable and the fix, and
 * leaves nothing behind (the checks' own probes are removed).
 */
export async function checkStartup(config: ServerConfig): Promise<void> {
  await checkPortFree(config.port, config.host);
  checkWritableFolder('DATA_DIR', config.dataDir);
  const { scheme, location } = parseDatabaseUrl({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  if (scheme === 'sqlite' && config.databaseUrl) checkSqliteFile(location);
  if (scheme === 'postgres') await checkPostgres(location);
}

/** Binds the port and lets it go at once (PORT=0 picks a free port: nothing to check). */
async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`PORT ${port} is in use (on ${host})`, 'stop the process listening there, or set PORT to a free port', { cause: error });
    if (code === 'EACCES') throw new StartupError(`PORT ${port}: permission denied (ports below 1024 need privileges)`, 'set PORT to 1024 or above, and put a reverse proxy on the low port', { cause: error });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new StartupError(`HOST ${host}: not an address of this machine (${code})`, 'set HOST to one of its addresses, 0.0.0.0 (all) or 127.0.0.1 (this machine only)', { cause: error });
    throw new StartupError(`PORT ${port} on HOST ${host} cannot be bound: ${(error as Error).message}`, 'check PORT and HOST', { cause: error });
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}

/**
 * The folder (or, when it does not exist yet, its nearest existing parent, where the server would
 * create it) takes a new entry: a probe folder is made and removed, so permissions, read-only
 * file systems and special folders all answer as they would for the server.
 */
function checkWritableFolder(variable: string, folder: string): void {
  const fix = `set ${variable} to a folder this user (uid ${process.getuid?.() ?? '?'}) may write, or fix its permissions`;
  let existing = folder;
  let stat: fs.Stats | null = null;
  while (!stat) {
    try {
      stat = fs.statSync(existing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing (or below a file): the server would create it in the nearest folder that exists.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(existing) === existing) {
        throw new StartupError(`${variable} ${folder} is not writable: ${existing} cannot be reached (${code ?? (error as Error).message})`, fix, { cause: error });
      }
      existing = path.dirname(existing);
    }
  }
  if (!stat.isDirectory()) {
    throw new StartupError(`${variable} ${folder} is not writable: ${existing} is a file, not a folder`, fix);
  }
  let probe: string | null = null;
  try {
    probe = fs.mkdtempSync(path.join(existing, '.forja-write-check-'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const where = existing === folder ? '' : ` (it does not exist, and its parent ${existing} is not writable either)`;
    throw new StartupError(`${variable} ${folder} is not writable: ${reason}${where}`, fix, { cause: error });
  } finally {
    if (probe) fs.rmSync(probe, { recursive: true, force: true });
  }
}

/** DATABASE_URL=sqlite:<file> (or a bare path) outside DATA_DIR: its folder must take the file and its journal. */
function checkSqliteFile(file: string): void {
  try {
    checkWritableFolder('DATABASE_URL', path.dirname(file));
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    throw new StartupError(`DATABASE_URL: the SQLite file ${file} cannot be written: ${error.message.replace(/^DATABASE_URL /, 'folder ')}`, 'point DATABASE_URL at a file in a writable folder, or leave it unset (SQLite in DATA_DIR)', { cause: error });
  }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    throw new StartupError(`DATABASE_URL: ${file} is a folder, not a SQLite file`, 'point DATABASE_URL at a file (sqlite:./data/forja.db)');
  }
}

/** Connects once and runs `select 1`; the URL's password is never printed. */
async function checkPostgres(url: string): Promise<void> {
  const where = describePostgres(url);
  try {
    await probePostgres(url, DATABASE_CHECK_TIMEOUT_MS);
  } catch (error) {
    throw postgresStartupError(error, where);
  }
}

interface PostgresTarget {
  host: string;
  port: string;
  database: string;
  user: string;
}

function describePostgres(url: string): PostgresTarget {
  try {
    const parsed = new URL(url);
    return {
      host: decodeURIComponent(parsed.hostname) || 'localhost',
      port: parsed.port || '5432',
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || '(default)',
      user: decodeURIComponent(parsed.username) || '(default)',
    };
  } catch {
    throw new StartupError('DATABASE_URL is not a valid URL', 'write it as postgres://user:password@host:5432/database (percent-encode special characters in the password)');
  }
}

/** PostgreSQL's and the network's errors, as the variable to change and how. */
function postgresStartupError(error: unknown, target: PostgresTarget): StartupError {
  const { code, message } = errorCode(error);
  const at = `${target.host}:${target.port}`;
  const cause = { cause: error };
  switch (code) {
    case '28P01':
    case '28000':
      return new StartupError(`DATABASE_URL: ${message}`, `correct the user and password in DATABASE_URL, or create the role (CREATE ROLE ${target.user} LOGIN PASSWORD '...')`, cause);
    case '3D000':
      return new StartupError(`DATABASE_URL: ${message} (on ${at})`, `create it (CREATE DATABASE ${target.database} OWNER ${target.user}) or correct the database name in DATABASE_URL`, cause);
    case 'ECONNREFUSED':
      return new StartupError(`DATABASE_URL: nothing answers at ${at} (connection refused)`, 'start PostgreSQL, or correct the host and port in DATABASE_URL', cause);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`DATABASE_URL: host "${target.host}" not found (${code})`, 'correct the host in DATABASE_URL', cause);
    case 'ETIMEDOUT':
    case 'TIMEOUT':
      return new StartupError(`DATABASE_URL: no answer from ${at} within ${DATABASE_CHECK_TIMEOUT_MS / 1000} s`, 'check the host and port in DATABASE_URL, and that a firewall lets this machine reach PostgreSQL', cause);
    default:
      return new StartupError(`DATABASE_URL: ${message}${code ? ` (${code})` : ''}`, 'check DATABASE_URL, and that PostgreSQL accepts this user from this machine (pg_hba.conf)', cause);
  }
}

function errorCode(error: unknown): { code: string | null; message: string } {
  const failure = error as { code?: unknown; message?: unknown; errors?: unknown[] };
  // Connecting to a name with several addresses fails with an AggregateError holding one per address.
  const first = Array.isArray(failure.errors) && failure.errors.length ? (failure.errors[0] as { code?: unknown }) : null;
  const code = typeof failure.code === 'string' ? failure.code : typeof first?.code === 'string' ? first.code : null;
  const message = typeof failure.message === 'string' && failure.message ? failure.message : String(error);
  if (!code && /timeout/i.test(message)) return { code: 'TIMEOUT', message };
  return { code, message };
}
