import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { postgresPoolOf } from '../../server/db/postgres-database.ts';
import { sqliteHandleOf } from '../../server/db/sqlite-database.ts';
import { createForjaServer } from '../../server/http/create-server.ts';
import { RecoveryCodes } from '../../server/identity/recovery-codes.ts';
import { sha256Hex } from '../../server/rag/chunk/sha256-hex.ts';
import { PostgresFtsIndex } from '../../server/db/retrieval/postgres-fts-index.ts';
import { SqliteFtsIndex } from '../../server/db/retrieval/sqlite-fts-index.ts';
import { copyDatabase } from '../../scripts/db-copy.ts';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';

/**
 * `npm run db:copy`: a SQLite database filled through the real server (entities, identity's
 * recovery codes, a trained RAG index) copied to PostgreSQL and back to a new SQLite file, with
 * row counts and spot checks at each step. Runs in the api-postgres project.
 */
const enabled = TEST_BACKEND === 'postgres';
const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!enabled)('db:copy', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-copy-'));
  const created: string[] = [];
  afterAll(async () => {
    for (const url of created) await dropTestPostgresDatabase(url);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies SQLite -> PostgreSQL -> SQLite with equal counts and equal records; refuses a non-empty target', async () => {
    // 1. A SQLite database written by the server itself.
    const sourceDir = path.join(dir, 'source');
    const forja = await createForjaServer({
      logger: false,
      config: { ...loadConfig({ DATA_DIR: sourceDir, LOG_LEVEL: 'silent' }), port: 0, distDir: path.join(sourceDir, 'no-dist') },
      identity: { adminUsername: 'admin', adminPassword: 'Copy-admin-1234', jwtSecret: randomBytes(32).toString('hex'), apiKeySecret: randomBytes(32).toString('hex') },
    });
    const login = await forja.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'Copy-admin-1234' } });
    const auth = { authorization: `Bearer ${login.json().accessToken}` };
    for (let i = 0; i < 25; i++) {
      const res = await forja.app.inject({ method: 'POST', url: '/api/tenants', headers: auth, payload: { name: `Tenant ${i}` } });
      expect(res.statusCode).toBe(201);
    }
    const role = (await forja.app.inject({ method: 'POST', url: '/api/roles', headers: auth, payload: { name: 'Copied', permissions: ['tenant:view'] } })).json();
    const user = (
      await forja.app.inject({
        method: 'POST', url: '/api/users', headers: auth,
        payload: { name: 'Inactive', username: 'inactive', password: 'Inactive-pass-9', email: 'i@example.com', phone: '1', role: role._id, active: false },
      })
    ).json();
    expect(user.active).toBe(false);
    await new RecoveryCodes(forja.database).issue(user._id);
    const chunks = ['Los envíos tardan 48 horas.', 'Abrimos de lunes a viernes.', 'La información de devoluciones está en la web.'].map((content) => ({
      content, hash: sha256Hex(content), source: 'faq',
    }));
    await new SqliteFtsIndex(sqliteHandleOf(forja.database)!).replace('kb-1', chunks);
    const tenantsBefore = (await forja.app.inject({ method: 'GET', url: '/api/tenants?limit=100&orderBy=_id', headers: auth })).json();
    const roleBefore = (await forja.app.inject({ method: 'GET', url: `/api/roles/${role._id}`, headers: auth })).json();
    await forja.app.close();

    // 2. SQLite -> PostgreSQL.
    const pgUrl = await createTestPostgresDatabase('forja_copy');
    created.push(pgUrl);
    const sqliteUrl = `sqlite:${path.join(sourceDir, 'forja.db')}`;
    const toPg = await copyDatabase(sqliteUrl, pgUrl, { batchSize: 7 });
    expect(toPg.ok).toBe(true);
    const byTable = new Map(toPg.tables.map((t) => [t.table, t]));
    expect(byTable.get('tenants')?.target).toBeGreaterThanOrEqual(25);
    for (const table of ['password_recovery_codes', 'users', 'roles', 'settings', 'rag_knowledge', 'rag_chunk']) expect(byTable.get(table)?.target).toBeGreaterThan(0);
    expect([...byTable.keys()].some((t) => t.startsWith('rag_fts'))).toBe(false);

    // 3. PostgreSQL -> a new SQLite file (before any server touches the copy): every row comes back.
    const back = path.join(dir, 'back', 'forja.db');
    const toSqlite = await copyDatabase(pgUrl, `sqlite:${back}`);
    expect(toSqlite.ok).toBe(true);
    const original = openDatabase({ dataDir: dir, databaseUrl: sqliteUrl });
    const roundTrip = openDatabase({ dataDir: dir, databaseUrl: `sqlite:${back}` });
    for (const table of ['tenants', 'users', 'roles', 'settings', 'password_recovery_codes', 'rag_chunk']) {
      const rows = async (db: typeof original) => db.all(db.kysely.selectFrom(table).selectAll().orderBy(table.startsWith('rag') ? 'id' : table === 'password_recovery_codes' ? 'codeHash' : '_id').compile());
      expect(await rows(roundTrip), table).toEqual(await rows(original));
    }
    await original.close();
    await roundTrip.close();

    // ...and the SQLite copy's rebuilt FTS5 index answers.
    const backDb = openDatabase({ dataDir: dir, databaseUrl: `sqlite:${back}` });
    const backHits = await new SqliteFtsIndex(sqliteHandleOf(backDb)!).search('kb-1', 'informacion devolucion', { maxResults: 3, scoreThreshold: 0 });
    expect(backHits.map((h) => h.content)).toContain('La información de devoluciones está en la web.');
    await backDb.close();

    // 4. Spot checks through a server on the PostgreSQL copy: the same records, booleans and JSON intact.
    const copyDir = path.join(dir, 'on-pg');
    const onPg = await createForjaServer({
      logger: false,
      config: { ...loadConfig({ DATA_DIR: copyDir, LOG_LEVEL: 'silent' }), databaseUrl: pgUrl, port: 0, distDir: path.join(copyDir, 'no-dist') },
      identity: { adminUsername: 'admin', adminPassword: 'unused-here-1234', jwtSecret: randomBytes(32).toString('hex'), apiKeySecret: randomBytes(32).toString('hex') },
    });
    const pgLogin = await onPg.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'Copy-admin-1234' } });
    expect(pgLogin.statusCode).toBe(200); // the copied argon2 hash
    const pgAuth = { authorization: `Bearer ${pgLogin.json().accessToken}` };
    expect((await onPg.app.inject({ method: 'GET', url: '/api/tenants?limit=100&orderBy=_id', headers: pgAuth })).json()).toEqual(tenantsBefore);
    expect((await onPg.app.inject({ method: 'GET', url: `/api/roles/${role._id}`, headers: pgAuth })).json()).toEqual(roleBefore);
    expect((await onPg.app.inject({ method: 'GET', url: `/api/users/${user._id}`, headers: pgAuth })).json().active).toBe(false);
    // The trained index answers on PostgreSQL (tsvector computed from the copied chunks).
    const hits = await new PostgresFtsIndex(postgresPoolOf(onPg.database)!).search('kb-1', 'informacion devolucion', { maxResults: 3, scoreThreshold: 0 });
    expect(hits.map((h) => h.content)).toContain('La información de devoluciones está en la web.');
    await onPg.app.close();

    // 5. The CLI refuses a target that already holds data, with a non-zero status.
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-copy.ts', '--from', sqliteUrl, '--to', pgUrl], { cwd: root, encoding: 'utf8' });
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/not empty/);
  }, 120_000);
});
