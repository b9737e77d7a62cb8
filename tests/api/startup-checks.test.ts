import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer } from '../fuzz/helpers/child-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/**
 * A start that cannot succeed (server/startup/check-startup.ts) stops before anything is created:
 * exit code 1, two lines naming the variable and the fix, no stack (unless LOG_LEVEL=debug), no
 * data directory, no database file, no administrator and no "Sign in at" line.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-startup-checks-'));
// Open to the server run as nobody below (mkdtemp makes it 0700).
fs.chmodSync(scratch, 0o755);
const cleanup: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  fs.rmSync(scratch, { recursive: true, force: true });
});

let counter = 0;
/** A data directory path that does not exist yet (the server would create it). */
function freshDataDir(): string {
  return path.join(scratch, `data-${++counter}`);
}

interface Refusal {
  code: number | null;
  output: string;
}

async function refusedStart(env: Record<string, string>, options: { dataDir?: string; port?: number; uid?: number } = {}): Promise<Refusal> {
  const server = await spawnServer({ dataDir: options.dataDir ?? freshDataDir(), env, port: options.port, uid: options.uid, waitReady: false });
  const code = await server.exited;
  return { code, output: server.output() };
}

/** What every refusal has in common. */
function expectRefused(refusal: Refusal, cause: RegExp, fix: RegExp): void {
  expect(refusal.code, refusal.output).toBe(1);
  const lines = refusal.output.trim().split('\n');
  expect(lines, refusal.output).toHaveLength(2);
  expect(lines[0]).toMatch(/^forja: cannot start: /);
  expect(lines[0]).toMatch(cause);
  expect(lines[1]).toMatch(/^ {2}fix: /);
  expect(lines[1]).toMatch(fix);
  expect(refusal.output).not.toMatch(/\n\s+at /);
  expect(refusal.output).not.toMatch(/Sign in at|admin-password/);
}

function expectNothingCreated(dataDir: string): void {
  expect(fs.existsSync(dataDir), `${dataDir} was created`).toBe(false);
  // No probe left behind next to it either.
  expect(fs.readdirSync(path.dirname(dataDir)).filter((name) => name.startsWith('.forja-write-check-'))).toEqual([]);
}

/** A PostgreSQL server that asks for a password and refuses it, as one with md5/scram auth does. */
async function refusingPostgres(): Promise<number> {
  const server = net.createServer((socket) => {
    let startup = true;
    socket.on('data', (data) => {
      if (startup) {
        startup = false;
        // The client may first ask for TLS (SSLRequest, 8 bytes); answer no and wait for the startup message.
        if (data.length === 8 && data.readInt32BE(4) === 80877103) {
          startup = true;
          socket.write('N');
          return;
        }
        // AuthenticationCleartextPassword.
        const ask = Buffer.alloc(9);
        ask.write('R', 0);
        ask.writeInt32BE(8, 1);
        ask.writeInt32BE(3, 5);
        socket.write(ask);
        return;
      }
      const fields = Buffer.from('SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed for user "forja"\0\0');
      const error = Buffer.alloc(5);
      error.write('E', 0);
      error.writeInt32BE(fields.length + 4, 1);
      socket.end(Buffer.concat([error, fields]));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

// Engine-independent (the PostgreSQL cases use DATABASE_URL_TEST's server): run once, in the SQLite project.
describe.skipIf(TEST_BACKEND === 'postgres')('start-up checks: refused before anything is created', { timeout: 120_000 }, () => {
  it.each([
    ['70000', /PORT 70000: must be a port number, 1-65535/],
    ['65536', /PORT 65536: must be a port number, 1-65535/],
    ['-1', /PORT -1: must be a port number/],
    ['http', /PORT http: must be a port number/],
  ])('PORT=%s', async (port, cause) => {
    const dataDir = freshDataDir();
    const refusal = await refusedStart({ PORT: port }, { dataDir });
    expect(refusal.code, refusal.output).toBe(1);
    expect(refusal.output.trim().split('\n')).toHaveLength(1);
    expect(refusal.output).toMatch(cause);
    expect(refusal.output).not.toMatch(/\n\s+at |Sign in at/);
    expectNothingCreated(dataDir);
  });

  it.each([['127.0.0.1'], ['0.0.0.0']])('a port in use (HOST=%s)', async (host) => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, host, resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const dataDir = freshDataDir();
      const refusal = await refusedStart({ HOST: host }, { dataDir, port });
      expectRefused(refusal, new RegExp(`PORT ${port} is in use`), /set PORT to a free port/);
      expectNothingCreated(dataDir);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('a DATA_DIR below a file', async () => {
    const file = path.join(scratch, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const dataDir = path.join(file, 'data');
    const refusal = await refusedStart({}, { dataDir });
    expectRefused(refusal, new RegExp(`DATA_DIR ${dataDir} is not writable: ${file} is a file`), /set DATA_DIR to a folder/);
    expect(fs.readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('a DATA_DIR in a folder the system does not let anyone write (/proc)', async () => {
    const refusal = await refusedStart({}, { dataDir: `/proc/forja-${process.pid}` });
    expectRefused(refusal, /DATA_DIR \/proc\/forja-\d+ is not writable: E[A-Z]+/, /set DATA_DIR to a folder/);
  });

  it('a read-only DATA_DIR, and one whose parent is read-only (run as nobody: root ignores file modes)', async () => {
    const parent = path.join(scratch, 'read-only');
    fs.mkdirSync(path.join(parent, 'existing'), { recursive: true });
    fs.chownSync(parent, 65534, 65534);
    fs.chownSync(path.join(parent, 'existing'), 65534, 65534);
    fs.chmodSync(path.join(parent, 'existing'), 0o555);
    fs.chmodSync(parent, 0o555);
    cleanup.push(() => {
      fs.chmodSync(parent, 0o755);
      fs.chmodSync(path.join(parent, 'existing'), 0o755);
    });
    const existing = await refusedStart({}, { dataDir: path.join(parent, 'existing'), uid: 65534 });
    expectRefused(existing, /DATA_DIR \S+\/existing is not writable: EACCES$/, /set DATA_DIR to a folder this user \(uid 65534\)/);
    expect(fs.readdirSync(path.join(parent, 'existing'))).toEqual([]);
    const missing = await refusedStart({}, { dataDir: path.join(parent, 'new', 'data'), uid: 65534 });
    expectRefused(missing, /DATA_DIR \S+\/new\/data is not writable: EACCES \(it does not exist, and its parent \S+\/read-only is not writable either\)/, /set DATA_DIR/);
    expect(fs.readdirSync(parent)).toEqual(['existing']);
    // Inside a folder it cannot even look into (root's, 0700).
    fs.chownSync(parent, 0, 0);
    fs.chmodSync(parent, 0o700);
    const hidden = await refusedStart({}, { dataDir: path.join(parent, 'existing'), uid: 65534 });
    expectRefused(hidden, /DATA_DIR \S+\/existing is not writable: \S+\/existing cannot be reached \(EACCES\)/, /set DATA_DIR/);
  });

  it('a SQLite DATABASE_URL in a folder that cannot be written', async () => {
    const dataDir = freshDataDir();
    const refusal = await refusedStart({ DATABASE_URL: `sqlite:/proc/forja-${process.pid}/forja.db` }, { dataDir });
    expectRefused(refusal, /DATABASE_URL: the SQLite file \/proc\/forja-\d+\/forja\.db cannot be written/, /point DATABASE_URL at a file in a writable folder/);
    expectNothingCreated(dataDir);
  });

  it('the wrong PostgreSQL password', async () => {
    const port = await refusingPostgres();
    const dataDir = freshDataDir();
    const refusal = await refusedStart({ DATABASE_URL: `postgres://forja:wrong-secret@127.0.0.1:${port}/forja` }, { dataDir });
    expectRefused(refusal, /^forja: cannot start: DATABASE_URL: password authentication failed for user "forja"$/m, /correct the user and password in DATABASE_URL/);
    expect(refusal.output).not.toContain('wrong-secret');
    expectNothingCreated(dataDir);
  });

  it('a closed PostgreSQL port, and a host that does not exist', async () => {
    const port = await freePort();
    let dataDir = freshDataDir();
    const closed = await refusedStart({ DATABASE_URL: `postgres://forja:secret-1@127.0.0.1:${port}/forja` }, { dataDir });
    expectRefused(closed, new RegExp(`DATABASE_URL: nothing answers at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`), /start PostgreSQL, or correct the host and port/);
    expect(closed.output).not.toContain('secret-1');
    expectNothingCreated(dataDir);
    dataDir = freshDataDir();
    const unknown = await refusedStart({ DATABASE_URL: 'postgres://forja:secret-1@forja-db.invalid:5432/forja' }, { dataDir });
    expectRefused(unknown, /DATABASE_URL: host "forja-db\.invalid" not found \((ENOTFOUND|EAI_AGAIN)\)/, /correct the host in DATABASE_URL/);
    expectNothingCreated(dataDir);
  });

  const postgresUrl = process.env.DATABASE_URL_TEST?.trim();
  it.skipIf(!postgresUrl)('a PostgreSQL database or role that does not exist (DATABASE_URL_TEST\'s server)', async () => {
    const missingDatabase = new URL(postgresUrl!);
    missingDatabase.pathname = `/forja_missing_${process.pid}`;
    let dataDir = freshDataDir();
    const database = await refusedStart({ DATABASE_URL: missingDatabase.href }, { dataDir });
    expectRefused(database, new RegExp(`DATABASE_URL: database "forja_missing_${process.pid}" does not exist \\(on ${missingDatabase.hostname}:${missingDatabase.port}\\)`), /CREATE DATABASE forja_missing_\d+ OWNER/);
    expectNothingCreated(dataDir);
    const missingRole = new URL(postgresUrl!);
    missingRole.username = `forja_nobody_${process.pid}`;
    dataDir = freshDataDir();
    const role = await refusedStart({ DATABASE_URL: missingRole.href }, { dataDir });
    expectRefused(role, new RegExp(`DATABASE_URL: role "forja_nobody_${process.pid}" does not exist`), /correct the user and password in DATABASE_URL/);
    expectNothingCreated(dataDir);
  });

  it('LOG_LEVEL=debug adds the stack trace', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const refusal = await refusedStart({ LOG_LEVEL: 'debug' }, { port });
      expect(refusal.code).toBe(1);
      expect(refusal.output).toMatch(new RegExp(`PORT ${port} is in use`));
      expect(refusal.output).toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
