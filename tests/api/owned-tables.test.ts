import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createOwnedTables, OWNED_TABLES, ownedTable, schemaTargetOf, type OwnedTable } from '../../server/db/owned-tables.ts';
import { entities } from '../../server/generated/entities.ts';
import { createTestPostgresDatabase, dropTestPostgresDatabase, tableIndexNames, TEST_BACKEND } from './helpers/test-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * Forja's own tables (server/db/owned-tables.ts): made at start by the server, in one place, on
 * every engine; a second start changes nothing; a table made by an older version gets the columns
 * added since, keeping its rows.
 */
const engine = TEST_BACKEND;
const has = (ddl: OwnedTable['create'] | undefined) => !!ddl && (Array.isArray(ddl) ? ddl.length > 0 : ((ddl as Record<string, readonly string[]>)[engine]?.length ?? 0) > 0);
const ofThisEngine = OWNED_TABLES.filter((table) => has(table.create));

/** Every owned table's columns (name, type, nullability, default) and index names, to compare two states. */
async function schemaOf(database: Database): Promise<Record<string, unknown>> {
  const shape: Record<string, unknown> = {};
  for (const { name } of ofThisEngine) {
    const columns =
      engine === 'postgres'
        ? sql`SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = ${name} ORDER BY ordinal_position`
        : sql`SELECT name, type, "notnull" AS nullable, dflt_value AS dflt FROM pragma_table_info(${name}) ORDER BY cid`;
    shape[name] = { columns: await database.all(columns.compile(database.kysely)), indexes: (await tableIndexNames(database, name)).sort() };
  }
  return shape;
}

let server: TestServer;
let scratch: { database: Database; dir: string; url: string | null };

beforeAll(async () => {
  server = await startTestServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-owned-tables-'));
  const url = engine === 'postgres' ? await createTestPostgresDatabase('forja_owned') : null;
  scratch = { database: openDatabase({ dataDir: dir, databaseUrl: url }), dir, url };
});

afterAll(async () => {
  await server?.close();
  await scratch?.database.close();
  if (scratch?.url) await dropTestPostgresDatabase(scratch.url);
  if (scratch) fs.rmSync(scratch.dir, { recursive: true, force: true });
});

describe(`Forja's own tables (${engine})`, () => {
  it("a started server has every table of its engine, with each one's indexes", async () => {
    const { database } = server.forja;
    expect(ofThisEngine.length).toBeGreaterThan(5);
    const shape = await schemaOf(database);
    for (const table of ofThisEngine) {
      const { columns, indexes } = shape[table.name] as { columns: Array<{ name: string }>; indexes: string[] };
      expect(columns.length, table.name).toBeGreaterThan(0);
      // Every column an `added` entry makes for this engine, and every index named in `indexes`.
      for (const { column, ddl } of table.added ?? []) if (has(ddl)) expect(columns.map((c) => c.name), `${table.name}.${column}`).toContain(column);
      const declared = [...JSON.stringify(table.indexes ?? []).matchAll(/INDEX IF NOT EXISTS (\w+)/g)].map((m) => m[1]);
      if (has(table.indexes)) for (const index of declared) expect(indexes, table.name).toContain(index);
    }
    // Tables of other engines only are not made here (SQLite has no coordination tables).
    const absent = OWNED_TABLES.filter((table) => !has(table.create)).map((table) => table.name);
    for (const name of absent) expect(await schemaTargetOf(database).columns(name), name).toEqual(new Set());
  });

  it('a second and a third run change nothing, and keep the rows', async () => {
    const { database } = scratch;
    await createOwnedTables(database);
    await database.run(sql`INSERT INTO password_recovery_codes ("codeHash", "userId", "expiresAt") VALUES ('h', 'u', '2030-01-01')`.compile(database.kysely));
    const first = await schemaOf(database);
    await createOwnedTables(database);
    await createOwnedTables(database);
    expect(await schemaOf(database)).toEqual(first);
    expect(await database.all(sql`SELECT "userId" FROM password_recovery_codes`.compile(database.kysely))).toEqual([{ userId: 'u' }]);
  });

  it('a table made by an older version gets the columns added since, keeping its rows; then it is as a new one', async () => {
    const { database } = scratch;
    const fresh = await schemaOf(database);
    const grown = ofThisEngine.filter((table) => (table.added ?? []).some(({ ddl }) => has(ddl)));
    expect(grown.map((t) => t.name)).toContain('rag_knowledge');
    for (const table of grown) {
      await database.run(sql`DROP TABLE ${sql.table(table.name)}`.compile(database.kysely));
      // The first version's columns only, and one row in it.
      const create = Array.isArray(table.create) ? table.create : (table.create as Record<string, readonly string[]>)[engine]!;
      for (const statement of create) await database.run(sql.raw(statement).compile(database.kysely));
    }
    await database.run(sql`INSERT INTO rag_knowledge (knowledge_id, slot) VALUES ('old', 7)`.compile(database.kysely));
    await createOwnedTables(database);
    expect(await schemaOf(database)).toEqual(fresh);
    // An old knowledge base keeps its row; on SQLite it is marked as trained by the analyzer before languages (0).
    const [row] = await database.all(sql`SELECT knowledge_id, slot, analyzer, languages FROM rag_knowledge`.compile(database.kysely));
    expect(row).toEqual({ knowledge_id: 'old', slot: 7, analyzer: engine === 'sqlite' ? 0 : 1, languages: null });
  });

  it('no owned table shares a name with an entity table, and an unknown name fails naming the file and the fix', () => {
    const entityTables = new Set(Object.values(entities).map((model) => model.storage.table));
    expect(OWNED_TABLES.map((table) => table.name).filter((name) => entityTables.has(name))).toEqual([]);
    expect(new Set(OWNED_TABLES.map((table) => table.name)).size).toBe(OWNED_TABLES.length);
    expect(() => ownedTable('rag_chunks')).toThrow(/"rag_chunks" is not one of Forja's own tables .*rag_chunk.*add it to OWNED_TABLES in server\/db\/owned-tables\.ts/);
  });
});
