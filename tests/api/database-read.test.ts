import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';

/**
 * Database.read (server/db/database.ts): the rows all() answers, as arrays in the order of
 * `columns`, on every path all() takes (outside and inside a transaction, a write returning rows,
 * no rows, more than 19 columns, repeated shapes).
 */
const engine = TEST_BACKEND;
let scratch: { database: Database; dir: string; url: string | null };

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-database-read-'));
  const url = engine === 'postgres' ? await createTestPostgresDatabase('forja_read') : null;
  const database = openDatabase({ dataDir: dir, databaseUrl: url });
  scratch = { database, dir, url };
  const columns = Array.from({ length: 24 }, (_, i) => `"c${i}" ${i % 3 === 0 ? 'INTEGER' : 'TEXT'}`).join(', ');
  await database.run(sql.raw(`CREATE TABLE wide (id INTEGER PRIMARY KEY, ${columns})`).compile(database.kysely));
  for (let id = 1; id <= 30; id++) {
    const values = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? String(id * 100 + i) : id % 5 === 0 && i === 1 ? 'NULL' : `'r${id} c${i} ñ'`));
    await database.run(sql.raw(`INSERT INTO wide VALUES (${id}, ${values.join(', ')})`).compile(database.kysely));
  }
});

afterAll(async () => {
  await scratch?.database.close();
  if (scratch?.url) await dropTestPostgresDatabase(scratch.url);
  if (scratch) fs.rmSync(scratch.dir, { recursive: true, force: true });
});

/** What read() answers, turned back into the objects all() answers. */
const asObjects = ({ columns, rows }: { columns: readonly string[]; rows: unknown[][] }) =>
  rows.map((row) => Object.fromEntries(columns.map((name, i) => [name, row[i]])));

describe(`Database.read (${engine})`, () => {
  it.each([
    ['every column', (db: Database) => db.kysely.selectFrom('wide').selectAll().orderBy('id')],
    ['some columns in another order', (db: Database) => db.kysely.selectFrom('wide').select(['c7', 'id', 'c1']).where('id', '>', 20).orderBy('id', 'desc')],
    ['no rows', (db: Database) => db.kysely.selectFrom('wide').select(['id', 'c2']).where('id', '<', 0)],
    ['an aliased expression', (db: Database) => db.kysely.selectFrom('wide').select((eb) => [eb.fn.countAll().as('total')])],
  ])('answers the rows all() answers, as arrays in column order: %s', async (_name, build) => {
    const { database } = scratch;
    const query = build(database).compile();
    const objects = await database.all(query);
    // Twice: the second read of a shape finds its prepared statement (and column list) again.
    for (let i = 0; i < 2; i++) {
      const batch = await database.read(query);
      expect(batch.rows.every((row) => Array.isArray(row))).toBe(true);
      expect(asObjects(batch).map((row) => Object.keys(row))).toEqual(objects.map((row) => Object.keys(row)));
      expect(asObjects(batch)).toEqual(objects);
    }
    // all() after read() still gives objects: the shared statement is back in its own mode.
    expect((await database.all(query)).every((row) => !Array.isArray(row))).toBe(true);
  });

  it('reads a transaction\'s own writes inside it, and a write returning rows', async () => {
    const { database } = scratch;
    const byId = (id: number) => database.kysely.selectFrom('wide').select(['id', 'c1']).where('id', '=', id).compile();
    await expect(
      database.transaction(async () => {
        await database.run(database.kysely.updateTable('wide').set({ c1: 'inside' }).where('id', '=', 3).compile());
        expect((await database.read(byId(3))).rows).toEqual([[3, 'inside']]);
        const returned = await database.read(database.kysely.updateTable('wide').set({ c1: 'returned' }).where('id', '=', 4).returning(['id', 'c1']).compile());
        expect(returned).toEqual({ columns: ['id', 'c1'], rows: [[4, 'returned']] });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // Rolled back: neither write is there.
    expect((await database.read(byId(3))).rows).toEqual([[3, 'r3 c1 ñ']]);
    expect((await database.read(byId(4))).rows).toEqual([[4, 'r4 c1 ñ']]);
  });
});
