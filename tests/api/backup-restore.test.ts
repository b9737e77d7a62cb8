import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../server/backup/create-backup.ts';
import { restoreBackup } from '../../server/backup/restore-backup.ts';
import { readOrCreateSecret } from '../../server/identity/secret-store.ts';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './helpers/test-server.ts';

/**
 * Issue 29 item 5 and README "Backup and restore": `npm run backup` of a running server under
 * writes (a consistent snapshot), `npm run restore` into a fresh DATA_DIR / database with every
 * table and file compared, the refusals (not empty without --force; corrupt, truncated, altered,
 * foreign or path-escaping files before anything is written). Both engines.
 */
const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-backup-test-'));
const postgres = TEST_BACKEND === 'postgres';
const databases: string[] = [];

/** Runs an npm script as the README shows it; resolves with its exit code and output. */
function npm(args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
}

/** Every table's rows as sorted JSON texts (row order is not part of the data). */
async function tablesOf(target: { dataDir: string; databaseUrl: string | null }): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const names = (await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)).rows.map((r) => r.tablename as string);
      for (const name of names) tables[name] = (await client.query(`SELECT row_to_json(t)::text AS j FROM "${name}" t`)).rows.map((r) => r.j as string).sort();
    } finally {
      await client.end();
    }
    return tables;
  }
  const db = new BetterSqlite3(path.join(target.dataDir, 'forja.db'), { readonly: true });
  try {
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1`).pluck().all() as string[];
    for (const name of names) {
      tables[name] = (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
        .map((row) => JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)))
        .sort();
    }
  } finally {
    db.close();
  }
  return tables;
}

const DATABASE_FILES = /^forja\.db(-wal|-shm|-journal)?$/;
function filesOf(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of listFiles(dataDir)) {
    if (DATABASE_FILES.test(file)) continue;
    const absolute = path.join(dataDir, file);
    files[file] = `${(fs.statSync(absolute).mode & 0o777).toString(8)} ${createHash('sha256').update(fs.readFileSync(absolute)).digest('hex')}`;
  }
  return files;
}

/** A fresh target: an empty DATA_DIR and, on PostgreSQL, an empty database. */
async function freshTarget(name: string): Promise<{ dataDir: string; databaseUrl: string | null; env: Record<string, string> }> {
  const dataDir = path.join(work, name);
  const databaseUrl = postgres ? await createTestPostgresDatabase('forja_restore') : null;
  if (databaseUrl) databases.push(databaseUrl);
  return { dataDir, databaseUrl, env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } };
}

let server: TestServer;
let sourceEnv: Record<string, string>;
let sourceUrl: string | null;
let uploaded: string;

beforeAll(async () => {
  server = await startTestServer();
  sourceUrl = postgres ? fs.readFileSync(path.join(server.dataDir, '.forja-test-database-url'), 'utf8').trim() : null;
  sourceEnv = { DATA_DIR: server.dataDir, ...(sourceUrl ? { DATABASE_URL: sourceUrl } : {}) };
  // Files of every kind DATA_DIR holds: an upload, the generated secrets, an export.
  const upload = await server.upload('/api/file', { name: 'manual.pdf', content: Buffer.from('%PDF-1.4 manual') });
  expect(upload.status).toBe(201);
  uploaded = upload.body.filepath;
  // The tests pass their secrets; a server started without them keeps generated ones here.
  readOrCreateSecret(server.dataDir, 'backup-test-secret', undefined);
  expect((await server.get('/api/roles/export?format=JSON')).status).toBe(200);
  for (let i = 0; i < 5; i++) expect((await server.post('/api/tenants', { name: `Before ${i}` })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await server?.close();
  for (const url of databases) await dropTestPostgresDatabase(url);
  fs.rmSync(work, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  it('a backup taken under writes restores to a consistent snapshot: the writes it holds are exactly the first ones', async () => {
    const file = path.join(work, 'under-writes.backup');
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        const res = await server.post('/api/tenants', { name: `Write ${String(written).padStart(5, '0')}` });
        expect(res.status).toBe(201);
        written++;
      }
    })();
    const backup = await npm(['backup', '--', file], sourceEnv);
    writing = false;
    await writes;
    expect(backup.stderr + backup.stdout).toContain('backup written');
    expect(backup.status).toBe(0);
    expect(written).toBeGreaterThan(0);

    const target = await freshTarget('under-writes');
    const restored = await npm(['restore', '--', file], target.env);
    expect(restored.status, restored.stderr).toBe(0);
    const names = (await tablesOf(target)).tenants.map((row) => JSON.parse(row).name as string).filter((name) => name.startsWith('Write ')).sort();
    // A snapshot: writes 0..n-1, no gaps (each write committed before the next began).
    expect(names).toEqual(Array.from({ length: names.length }, (_v, i) => `Write ${String(i).padStart(5, '0')}`));
    expect(names.length).toBeLessThanOrEqual(written);
  }, 120_000);

  it('a backup restores into a fresh DATA_DIR and database identical in every table and file, and the restored server works', async () => {
    const file = path.join(work, 'at-rest.backup');
    const backup = await npm(['backup', '--', file], sourceEnv);
    expect(backup.status, backup.stderr).toBe(0);
    const check = await npm(['restore', '--', '--check', file], {});
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain('checksum verified');

    const target = await freshTarget('at-rest');
    const restored = await npm(['restore', '--', file], target.env);
    expect(restored.status, restored.stderr).toBe(0);
    const source = await tablesOf({ dataDir: server.dataDir, databaseUrl: sourceUrl });
    const copy = await tablesOf(target);
    expect(Object.keys(copy)).toEqual(expect.arrayContaining(Object.keys(source)));
    // PostgreSQL: the restore makes every table this version's server makes (some only on first use); those are empty.
    for (const extra of Object.keys(copy).filter((table) => !(table in source))) expect(copy[extra], extra).toEqual([]);
    for (const table of Object.keys(source)) expect(copy[table], table).toEqual(source[table]);
    expect(Object.keys(source)).toEqual(expect.arrayContaining(['tenants', 'users', 'roles', 'forja_jobs']));
    const files = filesOf(server.dataDir);
    expect(Object.keys(files)).toEqual(expect.arrayContaining([uploaded, 'secrets/backup-test-secret']));
    expect(Object.keys(files).some((f) => f.startsWith('exports/'))).toBe(true);
    expect(files['secrets/backup-test-secret']).toMatch(/^600 /);
    expect(filesOf(target.dataDir)).toEqual(files);

    if (!postgres) {
      // The restored copy is a working Forja: same administrator, same records.
      const again = await startTestServer({ dataDir: target.dataDir, signIn: false });
      try {
        const token = await again.login('admin', TEST_ADMIN_PASSWORD);
        const tenants = await again.as({ token }).get('/api/tenants?limit=1000');
        expect(tenants.status).toBe(200);
        expect(tenants.body.total ?? tenants.body.items?.length ?? tenants.body.length).toBeGreaterThanOrEqual(5);
      } finally {
        await again.close({ keepData: true });
      }
    }

    // Not again without --force; with it, the same result.
    const twice = await npm(['restore', '--', file], target.env);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/not empty|has \d+ tables|exists; restore into an empty/);
    expect(twice.stderr).toContain('--force');
    const forced = await npm(['restore', '--', file, '--force'], target.env);
    expect(forced.status, forced.stderr).toBe(0);
    const copyAgain = await tablesOf(target);
    for (const table of Object.keys(source)) expect(copyAgain[table], table).toEqual(source[table]);
  }, 180_000);

  it('refuses an existing backup file name rather than overwrite it', async () => {
    const file = path.join(work, 'exists.backup');
    fs.writeFileSync(file, 'keep me');
    const res = await npm(['backup', '--', file], sourceEnv);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('exists already');
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  }, 60_000);

  describe('refuses a bad file before writing anything', () => {
    let good: Buffer;
    let lines: string[];
    beforeAll(async () => {
      const file = path.join(work, 'good.backup');
      expect((await npm(['backup', '--', file], sourceEnv)).status).toBe(0);
      good = fs.readFileSync(file);
      lines = zlib.gunzipSync(good).toString('utf8').trimEnd().split('\n');
    }, 60_000);

    /** Lines with a correct end line (count and checksum), so only the content is wrong. */
    const sealed = (body: string[]) => {
      const text = body.map((l) => `${l}\n`).join('');
      return zlib.gzipSync(text + `${JSON.stringify({ type: 'end', lines: body.length, sha256: createHash('sha256').update(text).digest('hex') })}\n`);
    };
    const flipped = () => {
      const copy = Buffer.from(good);
      copy[Math.floor(copy.length / 2)] ^= 0xff;
      return copy;
    };
    const altered = () => {
      const body = lines.slice(0, -1);
      const i = body.findIndex((l) => l.includes('"type":"file"'));
      body[i] = body[i].replace(/"data":"[^"]*"/, `"data":"${Buffer.from('changed').toString('base64')}"`);
      return zlib.gzipSync(body.map((l) => `${l}\n`).join('') + `${lines.at(-1)}\n`);
    };
    const withFile = (p: string) => sealed([...lines.slice(0, -1), JSON.stringify({ type: 'file', path: p, mode: 0o644, offset: 0, data: 'eA==' })]);
    const withHeader = (change: Record<string, unknown>) => sealed([JSON.stringify({ ...JSON.parse(lines[0]), ...change }), ...lines.slice(1, -1)]);

    it.each([
      ['a flipped byte', flipped, /corrupt|damaged|gzip/],
      ['a truncated file', () => good.subarray(0, good.length - 200), /truncated|damaged|corrupt/],
      ['an altered chunk (checksum no longer matches)', altered, /checksum mismatch/],
      ['plain text', () => Buffer.from('hello, not a backup\n'), /gzip/],
      ['an empty file', () => Buffer.alloc(0), /empty|gzip|not a Forja backup/],
      ['a gzip of foreign JSON lines', () => zlib.gzipSync('{"some":"thing"}\n{"else":1}\n'), /not a Forja backup/],
      ['a newer format version', () => withHeader({ version: 99 }), /version 99/],
      ['a file path escaping DATA_DIR', () => withFile('../escaped.txt'), /leaves DATA_DIR/],
      ['an absolute file path', () => withFile('/tmp/escaped.txt'), /leaves DATA_DIR/],
      ['a backslash file path', () => withFile('..\\escaped.txt'), /leaves DATA_DIR/],
      ['a hostile table name', () => sealed([...lines.slice(0, -1), JSON.stringify({ type: 'table', name: 'x"; DROP TABLE users; --', columns: [] })]), /table/],
      ['data after the end line', () => zlib.gzipSync(lines.map((l) => `${l}\n`).join('') + '{"type":"file"}\n'), /after the end/],
    ])('%s', async (_label, make, message) => {
      const file = path.join(work, `bad-${Math.random().toString(36).slice(2)}.backup`);
      fs.writeFileSync(file, make());
      const target = await freshTarget(`bad-${path.basename(file, '.backup')}`);
      await expect(restoreBackup({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, file })).rejects.toThrow(message);
      expect(fs.existsSync(target.dataDir)).toBe(false);
      expect(fs.existsSync(path.join(work, 'escaped.txt'))).toBe(false);
      if (target.databaseUrl) expect(Object.keys(await tablesOf(target))).toEqual([]);
    });

    it('the command says why in one line and exits 1', async () => {
      const file = path.join(work, 'flipped.backup');
      fs.writeFileSync(file, flipped());
      const target = await freshTarget('flipped-cli');
      const res = await npm(['restore', '--', file], target.env);
      expect(res.status).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/^restore failed: .*flipped\.backup: /);
      expect(fs.existsSync(target.dataDir)).toBe(false);
    }, 60_000);
  });
});
