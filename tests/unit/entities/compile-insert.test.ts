import { describe, expect, it } from 'vitest';
import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
} from 'kysely';
import type { Database } from '../../../server/db/database.ts';
import { compileInsert } from '../../../server/entities/compile-insert.ts';

/**
 * compileInsert reuses one compiled INSERT per table and column list (server/entities/compile-insert.ts):
 * for every row it must give exactly what Kysely compiles for that row, on both engines' SQL.
 */
function databaseOf(engine: 'sqlite' | 'postgres'): Database {
  const kysely = new Kysely<any>({
    dialect: {
      createAdapter: () => (engine === 'sqlite' ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (engine === 'sqlite' ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (engine === 'sqlite' ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });
  return { kysely } as unknown as Database;
}

const rows: Record<string, unknown>[] = [
  { _id: 'a', name: 'First', tokens: 3, score: 1.5, active: 1, note: null, createdAt: '2026-11-23T00:00:00.000Z' },
  { _id: 'b', name: 'Second', tokens: 4, score: 2.5, active: 0, note: 'x', createdAt: '2026-11-23T00:00:01.000Z' },
  // Same columns, one undefined: Kysely leaves that column out.
  { _id: 'c', name: 'Third', tokens: undefined, score: 0, active: 1, note: null, createdAt: '2026-11-23T00:00:02.000Z' },
  { _id: 'd', name: 'Fourth', tokens: undefined, score: 9, active: 0, note: 'y', createdAt: '2026-11-23T00:00:03.000Z' },
  // Keys in another order: another statement.
  { name: 'Fifth', _id: 'e', tokens: 7, score: 1, active: 1, note: null, createdAt: '2026-11-23T00:00:04.000Z' },
  // A non-plain value goes through Kysely.
  { _id: 'f', name: 'Sixth', tokens: 1, score: 1, active: 1, note: new Date(0), createdAt: '2026-11-23T00:00:05.000Z' },
  { _id: 'g', name: 'Seventh', tokens: 8, score: 3, active: 1, note: null, createdAt: '2026-11-23T00:00:06.000Z' },
];

describe('compileInsert', () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`gives Kysely's SQL and parameters for every row (${engine})`, () => {
      const database = databaseOf(engine);
      for (const row of rows) {
        const expected = database.kysely.insertInto('traces').values(row).compile();
        const compiled = compileInsert(database, 'traces', row);
        expect(compiled.sql).toBe(expected.sql);
        expect(compiled.parameters).toEqual(expected.parameters);
        expect(compiled.query.kind).toBe('InsertQueryNode');
      }
      // Another table with the same columns is another statement.
      expect(compileInsert(database, 'others', rows[0]!).sql).toBe(database.kysely.insertInto('others').values(rows[0]!).compile().sql);
    });
  }
});
