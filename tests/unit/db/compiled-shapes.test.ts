import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { postgresDialect } from '../../../server/db/postgres-dialect.ts';
import { sqliteDialect } from '../../../server/db/sqlite-dialect.ts';
import { createEntityAjv } from '../../../server/entities/ajv-instance.ts';
import { compileCountList, compileSelectById, compileSelectList, scopeConditions, selectList, type RecordScope } from '../../../server/entities/entity-query.ts';
import { defineEntities, type EntityDefinition } from '../../../server/entities/entity-definition.ts';
import { parseListQuery } from '../../../server/entities/list-query.ts';
import { decodeRow, decodeRows } from '../../../server/entities/record-codec.ts';
import { entities } from '../../../server/generated/entities.ts';
import { schemas } from '../../../server/generated/schemas.ts';

// Compiling needs no connection: a Database with each engine's dialect and query compiler.
function compilerOnly(engine: 'sqlite' | 'postgres'): Database {
  const kysely = new Kysely<any>({
    dialect: engine === 'sqlite' ? new SqliteDialect({ database: {} as never }) : new PostgresDialect({ pool: {} as never }),
  });
  return { kysely, dialect: engine === 'sqlite' ? sqliteDialect : postgresDialect } as unknown as Database;
}

const definitions = defineEntities(entities, schemas, createEntityAjv());
const traces = definitions.bottrace;
const ID_A = '019a0000-0000-7000-8000-00000000000a';
const ID_B = '019a0000-0000-7000-8000-00000000000b';

/** A list field some entity filters on (array.ref / array of values): the JSON containment path. */
function listFilterRuntime(): { definition: EntityDefinition; field: string } | null {
  for (const definition of Object.values(definitions)) {
    const field = definition.model.fields.find((f) => f.type.startsWith('array.') && definition.model.filterFields.includes(f.name) && f.type !== 'array.object');
    if (field) return { definition, field: field.name };
  }
  return null;
}

const SCOPES: RecordScope[] = [
  { tenantId: null, ownerId: null },
  { tenantId: 't-1', ownerId: null },
  { tenantId: 't-1', ownerId: 'u-1', recordId: ID_A },
];

/** Pairs of raw list queries with the same shape and other values. */
const QUERIES: [Record<string, string>, Record<string, string>][] = [
  [{}, {}],
  [{ page: '1', limit: '10', orderBy: 'createdAt', order: 'desc' }, { page: '7', limit: '25', orderBy: 'createdAt', order: 'desc' }],
  [{ filters: `status;eq;${ID_A}` }, { filters: `status;eq;${ID_B}` }],
  [{ filters: `status;ne;${ID_A}|chatId;like;50%_off`, search: 'refund' }, { filters: `status;ne;${ID_B}|chatId;like;x`, search: 'bill\\ing' }],
  [{ filters: `status;in;${ID_A},${ID_B}`, orderBy: 'latency', order: 'asc' }, { filters: `status;in;${ID_B},${ID_A}`, orderBy: 'latency', order: 'asc' }],
  [{ filters: `status;nin;${ID_A}|reaction;eq;Helpful`, limit: '5' }, { filters: `status;nin;${ID_B}|reaction;eq;Crap`, limit: '50' }],
  [{ search: 'a', filters: 'createdAt;gte;2026-01-01T00:00:00.000Z|createdAt;lt;2026-02-01T00:00:00.000Z' }, { search: 'b', filters: 'createdAt;gte;2025-01-01T00:00:00.000Z|createdAt;lt;2025-02-01T00:00:00.000Z' }],
];

const defaults = { limit: 10, maxLimit: 10_000, paged: true };

describe.each(['sqlite', 'postgres'] as const)('compiled shapes on %s', (engine) => {
  it('give the same SQL and parameters as a fresh compile, for every shape and for other values of it', () => {
    const database = compilerOnly(engine);
    for (const scope of SCOPES) {
      for (const [first, second] of QUERIES) {
        for (const raw of [first, second, first]) {
          const query = parseListQuery(traces, raw, defaults);
          const fresh = selectList(database, traces, scope, query, traces.selectColumns).compile();
          const cached = compileSelectList(database, traces, scope, query, traces.selectColumns);
          expect({ sql: cached.sql, parameters: cached.parameters }, JSON.stringify({ raw, scope })).toEqual({ sql: fresh.sql, parameters: fresh.parameters });
        }
      }
    }
  });

  it('count and GET by id fill their values in, scope included', () => {
    const database = compilerOnly(engine);
    for (const scope of SCOPES) {
      // Other ids than the scope's record id (ID_A in one scope).
      const [ID_C, ID_D] = [ID_A.replace(/a$/, 'c'), ID_A.replace(/a$/, 'd')];
      const a = parseListQuery(traces, { filters: `status;eq;${ID_C}`, search: 'x' }, defaults);
      const b = parseListQuery(traces, { filters: `status;eq;${ID_D}`, search: 'y' }, defaults);
      const countA = compileCountList(database, traces, scope, a);
      const countB = compileCountList(database, traces, scope, b);
      expect(countB.sql).toBe(countA.sql);
      expect(countA.sql.toLowerCase()).toContain('count(*)');
      expect(countA.parameters).toContain(ID_C);
      expect(countB.parameters).toContain(ID_D);
      expect(countB.parameters).not.toContain(ID_C);
      expect(countB.parameters).toContain('%y%');
      for (const id of [ID_A, ID_B, ID_A]) {
        // As the service built it before shapes were cached.
        const fresh = database.kysely
          .selectFrom(traces.table)
          .select(traces.selectColumns)
          .where((eb) => eb.and([eb('_id', '=', id), ...scopeConditions(traces, scope, eb)]))
          .compile();
        const cached = compileSelectById(database, traces, scope, id, traces.selectColumns);
        expect({ sql: cached.sql, parameters: cached.parameters }).toEqual({ sql: fresh.sql, parameters: fresh.parameters });
      }
    }
  });

  it('a list filter whose values the dialect turns into text still compiles right on every call', () => {
    const found = listFilterRuntime();
    if (!found) return expect(found).toBeNull();
    const database = compilerOnly(engine);
    for (const values of [['x1', 'x2'], ['y1', 'y2'], ['x1', 'x2']]) {
      const query = parseListQuery(found.definition, { filters: `${found.field};in;${values.join(',')}` }, defaults);
      const scope = { tenantId: null, ownerId: null };
      const fresh = selectList(database, found.definition, scope, query, found.definition.selectColumns).compile();
      const cached = compileSelectList(database, found.definition, scope, query, found.definition.selectColumns);
      expect({ sql: cached.sql, parameters: cached.parameters }).toEqual({ sql: fresh.sql, parameters: fresh.parameters });
    }
  });
});

describe('generated row readers', () => {
  it('decode like the dialect, keep the column order, pass unknown columns through, and share one hidden class', () => {
    const row = { _id: ID_A, knowledgeBase: '[{"source":"s"}]', latency: 12, reaction: null, extra: 'kept' } as Record<string, unknown>;
    const [one, two] = decodeRows(traces, sqliteDialect, [row, { ...row, _id: ID_B, knowledgeBase: null }]);
    expect(one).toEqual({ _id: ID_A, knowledgeBase: [{ source: 's' }], latency: 12, reaction: null, extra: 'kept' });
    expect(Object.keys(one)).toEqual(Object.keys(row));
    expect(two.knowledgeBase).toBeNull();
    expect(decodeRow(traces, postgresDialect, { _id: ID_A, knowledgeBase: [{ source: 's' }] })).toEqual({ _id: ID_A, knowledgeBase: [{ source: 's' }] });
    // Every column of the entity: one object literal per row, whatever the column count.
    const full = Object.fromEntries(traces.selectColumns.map((c) => [c, null]));
    expect(Object.keys(decodeRow(traces, sqliteDialect, full))).toEqual(traces.selectColumns);
    expect(decodeRows(traces, sqliteDialect, [])).toEqual([]);
  });

  it('quote column names, so a name cannot become code', () => {
    const hostile = { '"]; throw new Error("x"); //': 1, "a'b\\c\u2028": 2 } as Record<string, unknown>;
    expect(decodeRow(traces, sqliteDialect, hostile)).toEqual(hostile);
  });
});
