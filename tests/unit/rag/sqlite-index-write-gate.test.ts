import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { openSqliteDatabase } from '../../../server/db/sqlite-database.ts';
import { sha256Hex } from '../../../server/rag/chunk/sha256-hex.ts';
import type { SourcedChunk } from '../../../server/rag/rag-types.ts';
import { createRetrievalIndex } from '../../../server/db/retrieval/create-retrieval-index.ts';
import type { RetrievalIndex } from '../../../server/rag/search/retrieval-index.ts';
import { createOwnedTables } from '../../../server/db/owned-tables.ts';

/**
 * The RAG index writes on the server's own SQLite connection, so it must wait at the database's
 * write gate while another connection holds SQLite's write lock: an import's bulk write or an
 * entity transaction. Written straight on the handle, its first write would sleep in SQLite's busy
 * handler on the event loop the lock holder needs, and fail with SQLITE_BUSY after busy_timeout.
 * Every case is set up so the lock is provably held when the training starts (no timing).
 */
const chunk = (content: string): SourcedChunk => ({ content, hash: sha256Hex(content), source: 'manual' });
const CHUNKS = Array.from({ length: 30 }, (_, i) => chunk(`El envío número ${i} es gratuito para pedidos superiores a ${i + 10} euros.`));
const ALL = { maxResults: 50, scoreThreshold: 0 };

let dir: string;
let database: Database;
let index: RetrievalIndex;

const insert = (name: string) => sql`INSERT INTO entity_rows (name) VALUES (${name})`.compile(database.kysely);
const countRows = async () => Number((await database.first(sql`SELECT count(*) AS n FROM entity_rows`.compile(database.kysely)))!.n);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Settles to 'pending' when `promise` has not settled yet. */
const state = (promise: Promise<unknown>) => Promise.race([promise.then(() => 'settled', () => 'settled'), turn().then(() => 'pending')]);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-rag-gate-'));
  database = openSqliteDatabase(path.join(dir, 'forja.db'));
  await database.run(sql`CREATE TABLE entity_rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.compile(database.kysely));
  await createOwnedTables(database);
  index = createRetrievalIndex(database, null).index;
});

afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('RAG index writes on SQLite go through the write gate', () => {
  it('a training during an import-sized bulk write waits for it, and both complete', async () => {
    const bulk = database.runAll(Array.from({ length: 30_000 }, (_, i) => insert(`row ${i}`)));
    // The bulk write runs in ~8 ms slices on its own connection: after one turn it holds the lock mid-way.
    await turn();
    expect(await state(bulk)).toBe('pending');

    const training = index.replace('k1', CHUNKS);
    const single = database.run(insert('single'));
    const [trained] = await Promise.all([training, bulk, single]);

    expect(trained).toMatchObject({ total: CHUNKS.length, added: CHUNKS.length });
    expect(await countRows()).toBe(30_001);
    const hits = await index.search('k1', 'envío gratuito', ALL);
    expect(hits).toHaveLength(CHUNKS.length);
    expect(await index.stats('k1')).toMatchObject({ chunks: CHUNKS.length, generation: 1 });
  }, 60_000);

  it('a training while an entity transaction holds the write lock waits for its commit, and neither is torn', async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let wrote!: () => void;
    const began = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = database.transaction(async () => {
      await database.run(insert('in transaction'));
      wrote();
      // A hook still running: the transaction keeps SQLite's write lock meanwhile.
      await held;
      await database.run(insert('in transaction, later'));
    });
    await began;

    const training = index.replace('k1', CHUNKS);
    for (let i = 0; i < 5; i++) expect(await state(training)).toBe('pending');
    finish();
    await transaction;
    const trained = await training;

    expect(trained.added).toBe(CHUNKS.length);
    expect(await countRows()).toBe(2);
    expect(await index.search('k1', 'pedidos superiores', ALL)).toHaveLength(CHUNKS.length);
  }, 60_000);

  it('clearing an index waits at the gate too', async () => {
    await index.replace('k1', CHUNKS);
    const bulk = database.runAll(Array.from({ length: 30_000 }, (_, i) => insert(`row ${i}`)));
    await turn();
    expect(await state(bulk)).toBe('pending');
    const [cleared] = await Promise.all([index.clear('k1'), bulk]);
    expect(cleared.removed).toBe(CHUNKS.length);
    expect(await index.search('k1', 'envío', ALL)).toEqual([]);
  }, 60_000);

  it('several writers waiting on one lock holder take it one at a time (no SQLITE_BUSY, no nested BEGIN)', async () => {
    const bulk = database.runAll(Array.from({ length: 30_000 }, (_, i) => insert(`row ${i}`)));
    await turn();
    expect(await state(bulk)).toBe('pending');
    // All waiting on the bulk write at once: when it ends, each must find the lock free before it writes.
    const writers = [
      database.transaction(async () => {
        await database.run(insert('tx 1'));
        await turn();
        await database.run(insert('tx 1 again'));
      }),
      database.run(insert('plain')),
      database.transaction(async () => {
        await database.run(insert('tx 2'));
      }),
      index.replace('k1', CHUNKS),
      database.runAll(Array.from({ length: 2_000 }, (_, i) => insert(`second bulk ${i}`))),
    ];
    await Promise.all([bulk, ...writers]);
    expect(await countRows()).toBe(30_000 + 4 + 2_000);
    expect(await index.search('k1', 'envío', ALL)).toHaveLength(CHUNKS.length);
  }, 60_000);
});
